import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers.ts';

const skip = browserSkipReason();
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, suffix: '' },
  { name: 'phone', viewport: { width: 390, height: 844 }, suffix: '-phone', isMobile: true, hasTouch: true },
] as const;

/**
 * Nothing is wider than the window: the page does not scroll sideways and no block of the guide reaches past its
 * right edge (clipped out of sight); a code block or table scrolls inside itself.
 */
async function assertNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    widest: Math.max(
      ...Array.from(document.querySelectorAll('article > *')).map((block) => block.getBoundingClientRect().right),
    ),
  }));
  assert.ok(scrollWidth <= innerWidth, `${what}: ${scrollWidth} px wide in a ${innerWidth} px window`);
  assert.ok(widest <= innerWidth, `${what}: a block of the guide reaches ${widest} px in a ${innerWidth} px window`);
}

/** The platform's app guide in Chromium at 1280 px and 390 px: readable, nothing sideways, its contents links work. */
describe('the app guide in a browser', { skip }, () => {
  let t: TestApp;
  let platformUrl: string;
  let browser: Browser;

  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    platformUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const width of WIDTHS) {
    it(`the platform's app guide at ${width.viewport.width} px`, async () => {
      const { suffix, name: _name, ...options } = width;
      const context = await browser.newContext(options);
      const page = await context.newPage();
      try {
        await page.goto(`${platformUrl}/docs/guides`);
        await page.waitForURL(`${platformUrl}/docs/guides/apps`);
        assert.ok(await page.getByRole('heading', { level: 1 }).isVisible());
        await assertNoSidewaysScroll(page, 'the app guide');
        await screenshot(page, `platform/app-guide${suffix}`, { fullPage: false });
        const toc = page.locator('article a[href^="#"]:not(.heading-anchor)').first();
        const target = (await toc.getAttribute('href'))!;
        await toc.click();
        assert.ok(page.url().endsWith(target));
        assert.ok(await page.locator(target).isVisible());
      } finally {
        await context.close();
      }
    });
  }
});
