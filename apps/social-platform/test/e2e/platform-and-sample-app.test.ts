import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { browserSkipReason, launchBrowser, type Stack, startStack } from './harness.ts';

const skip = browserSkipReason();

/** A simple generated picture: a face-like circle on a warm background. */
const portrait = () =>
  sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 250, g: 196, b: 120 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="600" height="600"><circle cx="300" cy="250" r="130" fill="#7c4a2d"/><rect x="130" y="400" width="340" height="200" rx="120" fill="#3047b8"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

/**
 * Two people use the platform in a real browser: they sign up, become friends and write;
 * one registers the sample app, the other opens it in the canvas, sees their own data inside
 * the iframe, uploads a photo from the app and finds it in the platform's gallery.
 */
describe('platform and sample app in a browser', { skip }, () => {
  let stack: Stack;
  let browser: Browser;
  let adaContext: BrowserContext;
  let bobContext: BrowserContext;
  let ada: Page;
  let bob: Page;
  let appId: string;

  before(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    adaContext = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    bobContext = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    ada = await adaContext.newPage();
    bob = await bobContext.newPage();
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const url = (path: string) => `${stack.platformUrl}${path}`;

  async function signUp(page: Page, person: { fullName: string; userName: string }) {
    await page.goto(url('/signup'));
    await page.getByLabel('Full name').fill(person.fullName);
    await page.getByLabel('User name', { exact: true }).fill(person.userName);
    await page.getByLabel('E-mail').fill(`${person.userName}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: `Hello, ${person.fullName}` }).waitFor();
  }

  it('two people sign up, become friends and write to each other', async () => {
    await ada.goto(url('/'));
    await ada.goto(url('/signup'));
    await ada.getByRole('button', { name: 'Sign up' }).click();
    await ada.getByText('Please correct the fields marked below.').waitFor();

    await signUp(ada, { fullName: 'Ada Lovelace', userName: 'ada' });
    await signUp(bob, { fullName: 'Bob Builder', userName: 'bob' });
    await bob.goto(url('/u/bob'));
    await bob
      .getByLabel('New picture')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await portrait() });
    await bob.getByRole('button', { name: 'Upload picture' }).click();
    await bob.getByText('Your profile picture is updated.').waitFor();
    await bob.getByAltText('Profile picture of Bob Builder').evaluate((image: HTMLImageElement) => image.decode());

    await ada.goto(url('/people?q=bob'));
    await ada.getByRole('button', { name: 'Add friend (Bob Builder)' }).click();
    await ada.getByText('Request sent', { exact: true }).waitFor();

    await bob.goto(url('/friends'));
    await bob.getByRole('button', { name: 'Accept (Ada Lovelace)' }).click();
    await bob.getByText('You are now friends.').waitFor();

    await ada.goto(url('/u/bob'));
    await ada.getByRole('link', { name: 'Message' }).click();
    await ada
      .getByLabel('Message', { exact: true })
      .fill('Hi Bob! Try the sample app, it shows your friends and photos.');
    await ada.getByRole('button', { name: 'Send', exact: true }).click();
    await ada.getByText('Message sent.').waitFor();

    await bob.goto(url('/'));
    assert.equal(await bob.getByTestId('nav-mail').textContent(), '1 unseen messages');
  });

  it('a developer registers the sample app and gets its APP ID', async () => {
    await ada.goto(url('/developer'));
    await ada.getByLabel('App name').fill('Sample app');
    await ada.getByLabel('Canvas URL').fill(stack.sampleAppUrl);
    await ada.getByRole('button', { name: 'Register app' }).click();
    await ada.getByText('Your app is registered.').waitFor();
    appId = (await ada.getByTestId('app-id').first().innerText()).trim();
    assert.match(appId, /^\d+$/);
    // The console: the permissions the sample app needs, then publish it to the directory.
    await ada.goto(url(`/developer/apps/${appId}`));
    for (const permission of ['friends', 'mail_count', 'notifications', 'photos_read', 'photos_upload']) {
      await ada.locator(`input[name="permissions"][value="${permission}"]`).check();
    }
    await ada.getByRole('button', { name: 'Save' }).click();
    await ada.getByText('Your app is saved.').waitFor();
    await ada.getByRole('button', { name: 'Publish to the directory' }).click();
    await ada.getByText('Your app is in the directory now.').waitFor();
  });

  it('the other opens it in the canvas and sees their own data inside the iframe', async () => {
    await bob.goto(url('/apps'));
    await bob.getByRole('link', { name: 'Open Sample app' }).click();
    // The first opening asks first: no key, no app, until Allow.
    await bob.getByRole('button', { name: 'Allow' }).waitFor();
    assert.equal(await bob.locator('iframe').count(), 0);
    await bob.getByRole('button', { name: 'Allow' }).click();
    const canvas = bob.frameLocator('[data-testid="canvas"]');
    await canvas.getByTestId('user-name').waitFor();
    assert.equal(await canvas.getByTestId('user-name').innerText(), 'Bob Builder');
    // The picture comes from the platform's media route into the app's cross-origin page.
    await canvas.getByAltText('Profile picture of Bob Builder').evaluate((image: HTMLImageElement) => image.decode());
    assert.match(await canvas.getByTestId('friends').innerText(), /Ada Lovelace/);
    assert.equal(await canvas.getByTestId('unseen-mail').innerText(), '1');
    assert.match(await canvas.getByTestId('notifications').innerText(), /Ada Lovelace sent you a message\./);
    assert.match(await canvas.getByTestId('notifications').innerText(), /Ada Lovelace wants to be your friend\./);
    const src = new URL((await bob.getByTestId('canvas').getAttribute('src'))!);
    assert.equal(src.searchParams.get('app_id'), appId);
    assert.ok(src.searchParams.get('key'));
  });

  it('uploads a photo from the app, sees seven sizes, and finds it in the platform gallery', async () => {
    const canvas = bob.frameLocator('[data-testid="canvas"]');
    const photo = await sharp({
      create: { width: 1600, height: 1000, channels: 3, background: { r: 30, g: 110, b: 160 } },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg width="1600" height="1000"><circle cx="1150" cy="300" r="160" fill="#ffd166"/><rect y="650" width="1600" height="350" fill="#06d6a0"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer();
    await canvas.getByLabel(/^Photo \(/).setInputFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: photo });
    await canvas.getByRole('button', { name: 'Upload to the platform' }).click();
    await canvas.getByRole('heading', { name: 'Photo uploaded' }).waitFor();
    const sizes = canvas.locator('.size img');
    assert.equal(await sizes.count(), 7);
    for (const size of ['original', '75px', '100px', '150px', '240px', '500px', '1024px']) {
      const image = canvas.getByAltText(`Your photo, ${size}`);
      // Loaded for real: the platform's media route lets the app's origin show its images.
      await image.evaluate((element: HTMLImageElement) => element.decode());
      assert.ok((await image.evaluate((element: HTMLImageElement) => element.naturalWidth)) > 0, size);
    }

    await bob.goto(url('/photos'));
    const gallery = bob.getByTestId('gallery');
    assert.equal(await gallery.locator('img').count(), 1);
    assert.equal(await gallery.getByAltText('harbour.jpg').count(), 1);
  });

  it('the canvas fits its app: the iframe takes the height the app asks for through /js/canvas.js', async () => {
    await bob.goto(url(`/apps/${appId}`));
    const frameElement = bob.getByTestId('canvas');
    const canvas = bob.frameLocator('[data-testid="canvas"]');
    await canvas.getByTestId('user-name').waitFor();
    const app = (await (await frameElement.elementHandle())!.contentFrame())!;
    const contentHeight = () => app.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const frameHeight = () => frameElement.evaluate((frame: HTMLIFrameElement) => frame.clientHeight);
    /** Waits until the iframe's inside is as tall as the app's page, and returns that height. */
    const fitted = async () => {
      const wanted = await contentHeight();
      await bob.waitForFunction(
        (height) => document.querySelector<HTMLIFrameElement>('[data-testid="canvas"]')?.clientHeight === height,
        wanted,
      );
      return wanted;
    };
    const before = await fitted();
    assert.equal(await frameHeight(), before);

    // The page grows (what autoResize follows): the frame grows with it.
    await app.evaluate(() => {
      const filler = document.createElement('div');
      filler.style.height = '900px';
      filler.id = 'filler';
      document.body.append(filler);
    });
    const grown = await fitted();
    assert.ok(grown >= before + 900, `grown from ${before} to ${grown}`);
    // And shrinks back when it does.
    await app.evaluate(() => document.getElementById('filler')?.remove());
    assert.equal(await fitted(), before);

    // A message from any other window than the app's iframe changes nothing.
    await bob.evaluate(
      () =>
        new Promise<void>((resolve) => {
          window.addEventListener('message', (event) => event.data === 'flushed' && resolve());
          window.postMessage({ type: 'platform-canvas', action: 'resize', height: 300 }, '*');
          window.postMessage('flushed', '*');
        }),
    );
    assert.equal(await frameHeight(), before);

    // Another page of the app (its "not found" page) gets its own height.
    await app.goto(new URL('/no-such-page', stack.sampleAppUrl).toString());
    await canvas.getByRole('heading', { name: 'Not found' }).waitFor();
    const other = await fitted();
    assert.notEqual(other, before);
  });

  it('a reopened app gets a new key, and the old key no longer works', async () => {
    await bob.goto(url(`/apps/${appId}`));
    const canvas = bob.frameLocator('[data-testid="canvas"]');
    await canvas.getByTestId('user-name').waitFor();
    const firstKey = new URL((await bob.getByTestId('canvas').getAttribute('src'))!).searchParams.get('key')!;
    await bob.goto(url(`/apps/${appId}`));
    await canvas.getByTestId('user-name').waitFor();
    const secondKey = new URL((await bob.getByTestId('canvas').getAttribute('src'))!).searchParams.get('key')!;
    assert.notEqual(secondKey, firstKey);
    const replay = await fetch(url(`/token.php?key=${encodeURIComponent(firstKey)}`));
    assert.equal(replay.status, 401);
    assert.equal(
      ((await replay.json()) as { output: { error: { code: string } } }).output.error.code,
      'key_already_used',
    );
  });

  it('shows the other main pages, also on a phone', async () => {
    await bob.goto(url('/notifications'));
    await bob.goto(url('/u/ada'));
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await phone.addCookies(await bobContext.cookies());
      const page = await phone.newPage();
      await page.goto(url('/'));
      await page.getByRole('heading', { name: 'Hello, Bob Builder' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone screen`);
    } finally {
      await phone.close();
    }
  });
});
