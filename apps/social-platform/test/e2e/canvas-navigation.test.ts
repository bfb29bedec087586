import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { PERMISSION_NAMES } from '../../src/applications/permissions.ts';
import { browserSkipReason, launchBrowser, type Stack, startStack } from './harness.ts';

const skip = browserSkipReason();

/**
 * phpFox apps link to platform pages with target="_parent", which the canvas sandbox blocks: in
 * Chromium, a click on such a link in the sample app opens the platform page in the top window,
 * through /js/canvas.js and the canvas page; the app cannot do the same without the user's click.
 */
describe('canvas links to the platform with target="_parent", in a browser', { skip }, () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let app: Frame;

  before(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    const ctx = stack.platform.platform;
    const ann = await ctx.users.create({
      userName: 'ann',
      fullName: 'Ann Example',
      email: 'ann@example.com',
      password: 'correct horse battery',
    });
    const application = await ctx.apps.create({
      name: 'Sample app',
      canvasUrl: stack.sampleAppUrl,
      ownerId: ann.id,
      permissions: PERMISSION_NAMES,
      published: true,
    });
    await ctx.grants.grant(application.id, ann.id, PERMISSION_NAMES);
    page = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
    await page.goto(`${stack.platformUrl}/login`);
    await page.getByLabel('User name or e-mail').fill('ann');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('You are logged in.').waitFor();
    await page.goto(`${stack.platformUrl}/apps/${application.id}`);
    await page.frameLocator('[data-testid="canvas"]').getByTestId('user-name').waitFor();
    app = (await (await page.getByTestId('canvas').elementHandle())!.contentFrame())!;
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('a click opens the platform page in the top window; a script alone cannot', async () => {
    const canvasUrl = page.url();
    await app.evaluate((platformUrl) => {
      const link = document.createElement('a');
      link.href = `${platformUrl}/friends`;
      link.target = '_parent';
      link.textContent = 'Your friends on the platform';
      document.body.prepend(link);
    }, stack.platformUrl);

    // Without a click: asked, refused. A resize sent after it and seen done proves it was handled
    // (one window's messages arrive in order), so the click below cannot lend it its activation.
    // The sample app follows its content's height, so the 777 is caught as it is set.
    await page.evaluate(() => {
      const frame = document.querySelector('[data-testid="canvas"]')!;
      const seen: string[] = [];
      (window as unknown as { seenHeights: string[] }).seenHeights = seen;
      new MutationObserver(() => seen.push(frame.getAttribute('data-height') ?? '')).observe(frame, {
        attributes: true,
        attributeFilter: ['data-height'],
      });
    });
    await app.evaluate(() => {
      const canvas = (
        window as unknown as { PlatformCanvas: { navigate(p: string): boolean; resize(h: number): boolean } }
      ).PlatformCanvas;
      canvas.navigate('/people');
      canvas.resize(777);
    });
    await page.waitForFunction(() => (window as unknown as { seenHeights: string[] }).seenHeights.includes('777'));
    assert.equal(page.url(), canvasUrl, 'still on the canvas page');

    await app.getByRole('link', { name: 'Your friends on the platform' }).click();
    await page.waitForURL(`${stack.platformUrl}/friends`);
    await page
      .getByRole('heading', { name: /Friends/ })
      .first()
      .waitFor();
  });
});
