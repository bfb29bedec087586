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
  { name: 'phone', viewport: { width: 390, height: 844 }, suffix: '-390', isMobile: true, hasTouch: true },
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

/** The served guides in Chromium at 1280 px and 390 px: readable, nothing sideways, links that lead somewhere. */
describe('the served guides in a browser', { skip }, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;

  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const width of WIDTHS) {
    it(`the index and a guide at ${width.viewport.width} px`, async () => {
      const { suffix, name: _name, ...options } = width;
      const context = await browser.newContext(options);
      const page = await context.newPage();
      try {
        await page.goto(`${baseUrl}/docs/guides`);
        await page.getByRole('heading', { name: 'Guides', level: 1 }).waitFor();
        for (const section of ['Using the API', 'Endpoints', 'Design notes']) {
          assert.ok(await page.getByRole('heading', { name: section, level: 2 }).isVisible(), section);
        }
        await assertNoSidewaysScroll(page, '/docs/guides');
        await screenshot(page, `guides-index${suffix}`);

        // The widest guide: long tables and code blocks.
        await page
          .locator('article')
          .getByRole('link', { name: /availability/i })
          .first()
          .click();
        await page.waitForURL(`${baseUrl}/docs/guides/api/availability-and-whois`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        assert.ok(await page.getByRole('heading', { name: 'GET /v1/check', level: 2 }).isVisible());
        await assertNoSidewaysScroll(page, 'the availability guide');
        await screenshot(page, `guide-availability${suffix}`, { fullPage: false });

        // A heading's own link, then a link to another guide, then back to the index.
        const anchor = page.locator('h2#get-v1check a.heading-anchor');
        await anchor.focus();
        await anchor.click();
        assert.ok(page.url().endsWith('#get-v1check'));
        await page.locator('article a[href="/docs/guides/tlds#what-counts-as-available-over-whois"]').first().click();
        await page.waitForURL(`${baseUrl}/docs/guides/tlds#what-counts-as-available-over-whois`);
        assert.ok(await page.locator('#what-counts-as-available-over-whois').isVisible());
        await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Guides' }).click();
        await page.waitForURL(`${baseUrl}/docs/guides`);
      } finally {
        await context.close();
      }
    });
  }

  it('the API reference and the dashboard lead to the guides', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      for (const start of ['/docs', '/dashboard']) {
        await page.goto(`${baseUrl}${start}`);
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Guides' }).click();
        await page.waitForURL(`${baseUrl}/docs/guides`);
      }
    } finally {
      await page.close();
    }
  });
});
