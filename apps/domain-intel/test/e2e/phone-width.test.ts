import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { feedRow } from '../feed-helpers.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

const skip = browserSkipReason();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1200, height: 900 };
const EMAIL = 'phone@example.com';

/** How much wider than the window the page is (0: it fits); with the widest element, to say what to fix. */
async function overflow(page: Page): Promise<{ scrollWidth: number; widest: string }> {
  return page.evaluate(() => {
    let widest = '';
    let right = 0;
    // No named helpers in here: tsx would wrap them in a __name() the page does not have.
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      let clipped = false;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(parent).overflowX)) clipped = true;
      }
      if (clipped) continue;
      const box = element.getBoundingClientRect();
      if (box.right > right) {
        right = box.right;
        widest = `${element.tagName.toLowerCase()}.${element.className} (${Math.round(box.right)} px)`;
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, widest };
  });
}

/**
 * Every dashboard page (and the pages a newcomer meets around it) fits a 390 px phone screen:
 * nothing makes the page scroll sideways; wide tables scroll inside their own box. The pages
 * are found from the dashboard's own navigation, so pages added later are measured too.
 */
describe('the dashboard and the pages around it at phone width', { skip }, () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let phone: BrowserContext;
  let desktop: BrowserContext;

  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { FEED_COUNT_CACHE_SECONDS: '0' } });
    const { key } = await t.app.ctx.accounts.signUp({ email: EMAIL, plan: 'starter' });
    const now = Date.parse('2026-03-10T12:00:00Z');
    await t.app.ctx.database.db
      .insertInto('feed_domains')
      .values(
        Array.from({ length: 8 }, (_, i) =>
          feedRow(`a-rather-long-brand-name-${String(i).padStart(2, '0')}.com`, {
            dropped_at: now - i * 3_600_000,
            da: i,
            tf: 10 - i,
            first_archived_at: now - (i + 1) * 365 * 86_400_000,
          }),
        ),
      )
      .execute();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    desktop = await browser.newContext({ viewport: DESKTOP });
    for (const context of [phone, desktop]) {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/dashboard`);
      await page.getByLabel('E-mail', { exact: true }).fill(EMAIL);
      await page.getByLabel('API key').fill(key.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      await page.close();
    }
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The pages to measure: the dashboard's navigation, a filtered feed, and the public pages. */
  async function pagesToMeasure(): Promise<Array<{ name: string; path: string }>> {
    const page = await phone.newPage();
    await page.goto(`${baseUrl}/dashboard`);
    const links = await page
      .locator('nav.dash-nav a[href^="/dashboard"]')
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')!));
    await page.close();
    const dashboard = [...new Set(links)].map((path) => ({
      name: `dashboard${path.replace('/dashboard', '').replaceAll('/', '-') || '-overview'}`,
      path,
    }));
    assert.ok(dashboard.length >= 2, `dashboard pages: ${JSON.stringify(dashboard)}`);
    return [
      ...dashboard,
      { name: 'dashboard-feed-filtered', path: '/dashboard/feed?tld=com&min_da=3&limit=25&sort=da' },
      { name: 'dashboard-feed-error', path: '/dashboard/feed?min_da=500' },
      { name: 'signup', path: '/signup' },
      { name: 'error-codes', path: '/docs/errors' },
      { name: 'api-reference', path: '/docs' },
    ];
  }

  it('fits every page into 390 px without sideways scrolling, and keeps screenshots of both widths', async () => {
    const failures: string[] = [];
    for (const { name, path } of await pagesToMeasure()) {
      for (const [context, width, suffix] of [
        [phone, PHONE.width, 'phone'],
        [desktop, DESKTOP.width, 'desktop'],
      ] as const) {
        const page = await context.newPage();
        await page.goto(`${baseUrl}${path}`);
        await page.waitForLoadState('networkidle');
        if (path === '/docs') await page.locator('.opblock').first().waitFor();
        const { scrollWidth, widest } = await overflow(page);
        if (scrollWidth > width) failures.push(`${path} at ${width} px is ${scrollWidth} px wide; widest: ${widest}`);
        // Every page at phone width; at desktop width the reference page (the dashboard's desktop
        // screenshots come from dashboard.test.ts).
        // (The long reference pages only their first screen.)
        if (suffix === 'phone')
          await screenshot(page, `phone-${name}`, { fullPage: !name.includes('-codes') && name !== 'api-reference' });
        else if (name === 'api-reference') await screenshot(page, name);
        await page.close();
      }
    }
    assert.deepEqual(failures, []);
  });

  it('lets a wide table scroll inside its own box on a phone, not the page', async () => {
    const page = await phone.newPage();
    await page.goto(`${baseUrl}/dashboard/feed`);
    const table = page.getByTestId('feed-table');
    const box = await table.evaluate((element) => {
      const scroller = element.closest('.table-scroll');
      return scroller ? { inner: scroller.scrollWidth, outer: scroller.clientWidth } : null;
    });
    assert.ok(box, 'the feed table sits in a scrolling box');
    assert.ok(box.outer <= PHONE.width);
    await page.close();
  });
});
