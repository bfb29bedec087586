import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { landscapeImage } from '../../demo/demo-images.ts';
import { DEMO_PASSWORD, seedDemo } from '../../demo/seed.ts';
import { browserSkipReason, launchBrowser, type Stack, screenshot, startStack } from './harness.ts';

const skip = browserSkipReason();

const DESKTOP = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Every page of the platform, and the sample app in the canvas, in Chromium at desktop width
 * and at 390 px (a phone), over the demo world. With UPDATE_SCREENSHOTS=1 each is written to
 * docs/screenshots/platform/<name>.png and <name>-phone.png. On a phone no page may be wider
 * than the screen, the app inside the canvas included.
 */
describe('every platform page, on a desktop and on a phone', { skip }, () => {
  let stack: Stack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let appId: number;
  let privatePhotoId: number;

  before(async () => {
    stack = await startStack();
    const ctx = stack.platform.platform;
    const seeded = await seedDemo(ctx);
    appId = seeded.app_id;
    await ctx.apps.setCanvasUrl(appId, stack.sampleAppUrl);
    const diary = await ctx.photos.addPhoto({
      ownerId: seeded.users.alice,
      name: 'Diary page',
      data: await landscapeImage('Diary page', '#e599f7', '#862e9c'),
      visibility: 'private',
    });
    privatePhotoId = diary.id;
    browser = await launchBrowser();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  const url = (path: string) => `${stack.platformUrl}${path}`;

  /** A desktop and a phone page of one person (logged in when `userName` is given). */
  async function person(userName?: string): Promise<{ desktop: Page; phone: Page }> {
    const desktopContext = await browser.newContext({ viewport: DESKTOP });
    const phoneContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    contexts.push(desktopContext, phoneContext);
    const desktop = await desktopContext.newPage();
    if (userName) {
      await desktop.goto(url('/login'));
      await desktop.getByLabel('User name or e-mail').fill(userName);
      await desktop.getByLabel('Password').fill(DEMO_PASSWORD);
      await desktop.getByRole('button', { name: 'Log in' }).click();
      await desktop.getByText('You are logged in.').waitFor();
      await phoneContext.addCookies(await desktopContext.cookies());
    }
    return { desktop, phone: await phoneContext.newPage() };
  }

  /** Pictures on the page are loaded and decoded, so the full-page screenshot shows them (lazy ones too). */
  async function imagesLoaded(frame: Page | Frame): Promise<void> {
    await frame.evaluate(() =>
      Promise.all(
        Array.from(document.images).map((image) => {
          image.loading = 'eager';
          return image.decode().catch(() => undefined);
        }),
      ),
    );
  }

  /**
   * A page holding the app's cross-origin iframe, whole: Chromium paints such an iframe only
   * within the viewport, so a full-page capture leaves the rest blank. The viewport is made as
   * tall as the page, both documents get a frame to paint, and the viewport is captured.
   */
  async function screenshotWhole(page: Page, name: string): Promise<void> {
    const viewport = page.viewportSize()!;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: viewport.width, height });
    for (const frame of page.frames()) {
      await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    await screenshot(page, name, { fullPage: false });
    await page.setViewportSize(viewport);
  }

  async function assertFitsPhone(page: Page | Frame, name: string): Promise<void> {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: ${overflow}px wider than a 390 px phone`);
  }

  /** Shows `path` on both pages and writes both screenshots; `ready` waits for what the page must show. */
  async function shoot(
    pages: { desktop: Page; phone: Page },
    path: string,
    name: string,
    ready: (page: Page) => Promise<unknown>,
  ): Promise<void> {
    for (const [page, suffix] of [
      [pages.desktop, ''],
      [pages.phone, '-phone'],
    ] as const) {
      await page.goto(url(path));
      await ready(page);
      await imagesLoaded(page);
      if (suffix) await assertFitsPhone(page, name);
      await screenshot(page, `platform/${name}${suffix}`);
    }
  }

  it('the pages of a visitor who is not logged in', async () => {
    const visitor = await person();
    const heading = (text: string) => (page: Page) => page.getByRole('heading', { name: text }).first().waitFor();
    await shoot(visitor, '/', 'welcome', (page) => page.getByRole('link', { name: 'Sign up' }).first().waitFor());
    await shoot(visitor, '/login', 'login', heading('Log in'));
    await shoot(visitor, '/signup', 'signup', heading('Create your account'));
    for (const page of [visitor.desktop, visitor.phone]) {
      await page.goto(url('/signup'));
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Please correct the fields marked below.').waitFor();
      if (page === visitor.phone) await assertFitsPhone(page, 'signup-errors');
      await screenshot(page, `platform/signup-errors${page === visitor.phone ? '-phone' : ''}`);
    }
  });

  it('the pages of a member: home, people, friends, mail, notifications, profiles, photos, settings', async () => {
    const alice = await person('alice');
    const heading = (text: string) => (page: Page) => page.getByRole('heading', { name: text }).first().waitFor();
    await shoot(alice, '/', 'home', heading('Hello, Alice Martin'));
    await shoot(alice, '/people', 'people', heading('People'));
    await shoot(alice, '/people?q=o', 'people-search', heading('People'));
    await shoot(alice, '/friends', 'friends', heading('Friends'));
    await shoot(alice, '/mail', 'inbox', heading('Inbox'));
    await shoot(alice, '/mail/bob', 'conversation', (page) => page.getByText('see you at noon').waitFor());
    await shoot(alice, '/notifications', 'notifications', heading('Notifications'));
    await shoot(alice, '/u/alice', 'profile-own', heading('Alice Martin'));
    await shoot(alice, '/u/bob', 'profile', heading('Bob Okafor'));
    await shoot(alice, '/photos', 'photos', heading('Your photos'));
    await shoot(alice, `/photos/${privatePhotoId}`, 'photo', heading('Diary page'));
    await shoot(alice, '/u/chloe/photos', 'photos-of-friend', heading('Photos of Chloé Dubois'));
    await shoot(alice, '/settings', 'settings', heading('Your profile'));
    await shoot(alice, '/no/such/page', 'not-found', heading('Not found'));
  });

  it('the apps: directory, consent, the sample app in the canvas, and one’s allowed apps', async () => {
    const alice = await person('alice');
    await shoot(alice, '/apps', 'apps', (page) =>
      page
        .getByRole('link', { name: /Sample App/ })
        .first()
        .waitFor(),
    );
    await shoot(alice, `/apps/${appId}`, 'consent', (page) => page.getByRole('button', { name: 'Allow' }).waitFor());
    await alice.desktop.getByRole('button', { name: 'Allow' }).click();

    for (const [page, suffix] of [
      [alice.desktop, ''],
      [alice.phone, '-phone'],
    ] as const) {
      await page.goto(url(`/apps/${appId}`));
      const frameElement = page.getByTestId('canvas');
      await page.frameLocator('[data-testid="canvas"]').getByTestId('user-name').waitFor();
      const app = (await (await frameElement.elementHandle())!.contentFrame())!;
      await imagesLoaded(app);
      // The iframe fits the app's page: no scrollbar inside, no empty space below.
      const content = await app.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      await page.waitForFunction(
        (height) => document.querySelector<HTMLIFrameElement>('[data-testid="canvas"]')?.clientHeight === height,
        content,
      );
      if (suffix) {
        await assertFitsPhone(page, 'canvas');
        await assertFitsPhone(app, 'the sample app in the canvas');
      }
      await imagesLoaded(page);
      await screenshotWhole(page, `platform/canvas${suffix}`);

      // An upload from inside the app: the page of seven sizes, fitted as well.
      const canvas = page.frameLocator('[data-testid="canvas"]');
      await canvas.getByLabel(/^Photo \(/).setInputFiles({
        name: 'harbour.jpg',
        mimeType: 'image/jpeg',
        buffer: await landscapeImage('Harbour', '#339af0', '#0b7285'),
      });
      await canvas.getByRole('button', { name: 'Upload to the platform' }).click();
      await canvas.getByRole('heading', { name: 'Photo uploaded' }).waitFor();
      await imagesLoaded(app);
      const uploaded = await app.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      await page.waitForFunction(
        (height) => document.querySelector<HTMLIFrameElement>('[data-testid="canvas"]')?.clientHeight === height,
        uploaded,
      );
      if (suffix) await assertFitsPhone(app, 'the upload page in the canvas');
      await screenshotWhole(page, `platform/canvas-upload${suffix}`);
    }
    await shoot(alice, '/settings/apps', 'settings-apps', (page) => page.getByTestId('granted-app').first().waitFor());
  });

  it('the developer pages: one’s apps and an app’s console', async () => {
    const devon = await person('devon');
    const heading = (text: string) => (page: Page) => page.getByRole('heading', { name: text }).first().waitFor();
    await shoot(devon, '/developer', 'developer', heading('Developer'));
    await shoot(devon, `/developer/apps/${appId}`, 'developer-console', heading('Sample App'));
  });
});
