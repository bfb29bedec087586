import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PERMISSION_NAMES } from '../../src/applications/permissions.ts';
import { browserSkipReason, launchBrowser, type Stack, startStack } from './harness.ts';

const skip = browserSkipReason();

/**
 * A developer tries the sample app without real people: in the console they create a test user,
 * launch the app as that user (the app shows the test user's own data), then remove the app for
 * them, which ends the app's access.
 */
describe('test users in a browser', { skip }, () => {
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let dev: Page;
  let appId: number;

  before(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    const ctx = stack.platform.platform;
    const owner = await ctx.users.create({
      userName: 'dee',
      fullName: 'Dee Veloper',
      email: 'dee@example.com',
      password: 'correct horse battery',
    });
    // In development mode: only the developer, testers and the app's test users open it.
    appId = (
      await ctx.apps.create({
        name: 'Sample app',
        canvasUrl: stack.sampleAppUrl,
        ownerId: owner.id,
        permissions: PERMISSION_NAMES,
      })
    ).id;
    context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    dev = await context.newPage();
    await dev.goto(`${stack.platformUrl}/login`);
    await dev.getByLabel('User name or e-mail').fill('dee');
    await dev.getByLabel('Password').fill('correct horse battery');
    await dev.getByRole('button', { name: 'Log in' }).click();
    await dev.getByText('You are logged in.').waitFor();
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('creates a test user, launches the sample app as them, and removes the app for them', async () => {
    await dev.goto(`${stack.platformUrl}/developer/apps/${appId}`);
    await dev.getByLabel('Name of a new test user (optional)').fill('Tess Tester');
    await dev.getByRole('button', { name: 'Create test user' }).click();
    await dev.getByText('Test user created.').waitFor();
    await dev.getByRole('button', { name: /^Launch as/ }).click();

    const [app] = await Promise.all([
      context.waitForEvent('page'),
      dev.getByRole('link', { name: 'Open your app as Tess Tester' }).click(),
    ]);
    await app.getByTestId('user-name').waitFor();
    assert.equal(await app.getByTestId('user-name').innerText(), 'Tess Tester');
    // Reloading keeps the app's session: what changes below is the removal's doing.
    await app.reload();
    await app.getByTestId('user-name').waitFor();

    await dev.getByRole('button', { name: /^Remove the app/ }).click();
    await dev.getByText('The test user removed your app').waitFor();
    // The app's token for the test user is revoked: the app can no longer show their data.
    await app.reload();
    await app.getByText('Error code: token_revoked').waitFor();
    assert.equal(await app.getByTestId('user-name').count(), 0);
  });
});
