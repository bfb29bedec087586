import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freeLoopbackPort, tempDir } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { type RunningSampleApp, startSampleApp } from '../../../sample-app/src/index.ts';
import { buildApp } from '../../src/app.ts';
import { loadPlatformConfig } from '../../src/config.ts';
import { browserSkipReason, launchBrowser } from './harness.ts';

const skip = browserSkipReason();

/**
 * A developer's whole round with an app secret, in a real browser: register the sample app, copy
 * its secret (shown once), require a signed exchange, set the callback URL, start the app with the
 * secret; a user opens it (a signed launch, a signed exchange) and removes it asking for their data
 * to be deleted; the app hears app.deauthorized and reports the deletion done, and the developer
 * sees both deliveries in the log.
 */
describe('an app with its secret, from registration to removal, in a browser', { skip }, () => {
  const data = tempDir('e2e-signed-app');
  let platform: FastifyInstance;
  let platformUrl: string;
  let sample: RunningSampleApp | undefined;
  let samplePort: number;
  let browser: Browser;
  let dev: Page;
  let bob: Page;
  let appId: string;
  let secret: string;

  before(async () => {
    const port = await freeLoopbackPort();
    samplePort = await freeLoopbackPort();
    platformUrl = `http://127.0.0.1:${port}`;
    platform = await buildApp(
      loadPlatformConfig({
        NODE_ENV: 'test',
        DATA_DIR: data.dir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: platformUrl,
        CALLBACK_ALLOW_INSECURE: '1',
      }),
      { logger: false },
    );
    await platform.listen({ host: '127.0.0.1', port });
    browser = await launchBrowser();
    dev = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
    bob = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await sample?.close();
    await platform?.close();
    data.remove();
  });

  const url = (path: string) => `${platformUrl}${path}`;
  const sampleUrl = () => `http://127.0.0.1:${samplePort}/`;

  async function signUp(page: Page, person: { fullName: string; userName: string }) {
    await page.goto(url('/signup'));
    await page.getByLabel('Full name').fill(person.fullName);
    await page.getByLabel('User name', { exact: true }).fill(person.userName);
    await page.getByLabel('E-mail').fill(`${person.userName}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: `Hello, ${person.fullName}` }).waitFor();
  }

  it('the developer registers the app, copies its secret once, requires signing and sets the callback URL', async () => {
    await signUp(dev, { fullName: 'Dee Veloper', userName: 'dee' });
    await dev.goto(url('/developer'));
    await dev.getByLabel('App name').fill('Sample app');
    await dev.getByLabel('Canvas URL').fill(sampleUrl());
    await dev.getByRole('button', { name: 'Register app' }).click();
    await dev.getByText('Your app is registered.').waitFor();
    appId = (await dev.getByTestId('app-id').first().innerText()).trim();
    await dev.getByTestId('copy-secret').click();
    secret = (await dev.getByTestId('app-secret').innerText()).trim();
    assert.match(secret, /^sps_[A-Za-z0-9_-]{43}$/);
    await dev.reload();
    assert.equal(await dev.getByTestId('app-secret').count(), 0, 'the secret is shown once');

    await dev.getByRole('button', { name: 'Require a signed exchange' }).click();
    await dev.getByText('token.php now refuses exchanges of your app without a valid sig.').waitFor();
    await dev.getByLabel('Callback URL').fill(new URL('/platform/events', sampleUrl()).href);
    await dev.getByRole('button', { name: 'Save callback URL' }).click();
    await dev.getByText('The callback URL is saved.').waitFor();

    await dev.goto(url(`/developer/apps/${appId}`));
    for (const permission of ['friends', 'mail_count', 'notifications', 'photos_read']) {
      await dev.locator(`input[name="permissions"][value="${permission}"]`).check();
    }
    await dev.getByRole('button', { name: 'Save' }).click();
    await dev.getByRole('button', { name: 'Publish to the directory' }).click();
    await dev.getByText('Your app is in the directory now.').waitFor();
    // The app runs with the secret it was given.
    sample = await startSampleApp({
      port: samplePort,
      platformUrl,
      logger: false,
      env: { LOG_LEVEL: 'silent', APP_SECRET: secret },
    });
  });

  it('a user opens it: the app verifies the signed launch and trades the key with sig', async () => {
    await signUp(bob, { fullName: 'Bob Builder', userName: 'bob' });
    await bob.goto(url(`/apps/${appId}`));
    await bob.getByRole('button', { name: 'Allow' }).click();
    const canvas = bob.frameLocator('[data-testid="canvas"]');
    await canvas.getByTestId('user-name').waitFor();
    assert.equal(await canvas.getByTestId('user-name').innerText(), 'Bob Builder');
    const src = new URL((await bob.getByTestId('canvas').getAttribute('src'))!);
    assert.match(src.searchParams.get('sign') ?? '', /^[0-9a-f]{64}$/);
    assert.equal(src.searchParams.get('app_id'), appId);
  });

  it('removing it (and asking for deletion) reaches the app: app.deauthorized, then the deletion done', async () => {
    await bob.goto(url('/settings/apps'));
    await bob.getByLabel('Ask it to delete my data').check();
    await bob.getByRole('button', { name: 'Remove Sample app' }).click();
    await bob.getByText('The app is removed; it can no longer act for you.').waitFor();
    await platform.platform.appEvents.settled();
    const types = sample!.app.sample.events.map((event) => event.type);
    assert.deepEqual(types, ['app.deauthorized', 'user.data_deletion_requested']);

    await dev.goto(url(`/developer/apps/${appId}/credentials`));
    const log = dev.getByTestId('delivery-log');
    await log.waitFor();
    assert.match(await log.innerText(), /app\.deauthorized/);
    assert.deepEqual(await dev.getByTestId('event-state').allInnerTexts(), ['delivered', 'delivered']);
    const [deletion] = await platform.platform.database.db.selectFrom('data_deletion_requests').selectAll().execute();
    assert.equal(deletion?.status, 'completed');
  });

  it('a test user launches the app from the console and removes it: the app hears app.deauthorized for them', async () => {
    const heard = sample!.app.sample.events.length;
    await dev.goto(url(`/developer/apps/${appId}`));
    await dev.getByLabel('Name of a new test user (optional)').fill('Tess Tester');
    await dev.getByRole('button', { name: 'Create test user' }).click();
    await dev.getByText('Test user created.').waitFor();
    await dev.getByRole('button', { name: /^Launch as/ }).click();
    const [app] = await Promise.all([
      dev.context().waitForEvent('page'),
      dev.getByRole('link', { name: 'Open your app as Tess Tester' }).click(),
    ]);
    // The launch link is signed like a canvas launch, and the app (which requires signing) accepts it.
    await app.getByTestId('user-name').waitFor();
    assert.equal(await app.getByTestId('user-name').innerText(), 'Tess Tester');
    await dev.getByRole('button', { name: /^Remove the app/ }).click();
    await dev.getByText('The test user removed your app').waitFor();
    await platform.platform.appEvents.settled();
    const events = sample!.app.sample.events.slice(heard);
    assert.deepEqual(
      events.map((event) => event.type),
      ['app.deauthorized'],
    );
  });
});
