import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { formatDate, formatNumber } from '../src/http/page-formats.ts';
import { DashboardBrowser, testId } from './dashboard-session.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

const FEED_ROWS = 1_234;
const DATE = /\d{4}-\d{2}-\d{2}/;

/** The page without its <time class="date"> elements and its embedded chart data: what must hold no date. */
function outsideDateElements(html: string): string {
  return html
    .replace(/<time class="date" datetime="[^"]+">[^<]*<\/time>/g, '')
    .replace(/ datetime="[^"]*"/g, '')
    .replace(/<script type="application\/json"[^>]*>[^<]*<\/script>/g, '')
    .replace(/<input[^>]*>/g, '');
}

describe('page formats', () => {
  it('numbers with thousands separators, dates in an element that keeps them on one line', () => {
    assert.equal(formatNumber(1_234_567), '1,234,567');
    assert.equal(formatNumber(999), '999');
    assert.equal(
      formatDate('2026-03-10T12:34:56.000Z'),
      '<time class="date" datetime="2026-03-10T12:34:56.000Z">2026-03-10</time>',
    );
    assert.equal(
      formatDate(Date.parse('2026-03-10T12:34:56Z'), { time: true }),
      '<time class="date" datetime="2026-03-10T12:34:56.000Z">2026-03-10 12:34</time>',
    );
  });
});

for (const target of databaseTargets()) {
  describe(`dashboard numbers and dates (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let browser: DashboardBrowser;
    before(async () => {
      t = await createTestApp({ target, env: { FEED_COUNT_CACHE_SECONDS: '0', TRACKED_TLDS: 'com,net' } });
      const email = `formats-${Date.now()}@example.com`;
      const key = await t.keyFor('starter', email);
      const now = Date.parse('2026-03-10T12:00:00Z');
      const rows = Array.from({ length: FEED_ROWS }, (_, i) =>
        feedRow(`name-${String(i).padStart(5, '0')}.com`, { dropped_at: now - (i + 1) * 60_000 }),
      );
      for (let i = 0; i < rows.length; i += 200) {
        await t.app.ctx.database.db
          .insertInto('feed_domains')
          .values(rows.slice(i, i + 200))
          .execute();
      }
      // Something in every table: a filter, a target, a watched name, a used key.
      await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      await t.app.inject({
        method: 'POST',
        url: '/account/filters',
        headers: bearer(key),
        payload: { name: 'com', filter: 'tld=com' },
      });
      await t.app.inject({
        method: 'POST',
        url: '/account/targets',
        headers: bearer(key),
        payload: { kind: 'webhook', address: 'https://hooks.example.com/drops' },
      });
      browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
    });
    after(async () => t?.close());

    it('writes counts with thousands separators', async () => {
      const overview = (await browser.get('/dashboard')).body;
      assert.match(overview, /of 1,000 calls/);
      const feed = (await browser.get('/dashboard/feed?tld=com')).body;
      assert.equal(testId(feed, 'feed-total'), '1,234');
      assert.match(feed, /Rows 1–\d+ of 1,234/);
      const watchlist = (await browser.get('/dashboard/watchlist')).body;
      assert.match(watchlist, /0 of 1,000 on your plan/);
    });

    it('puts every date of every dashboard page in a <time class="date"> element', async () => {
      for (const path of [
        '/dashboard',
        '/dashboard/feed?tld=com',
        '/dashboard/filters',
        '/dashboard/deliveries',
        '/dashboard/watchlist',
        '/dashboard/forecasts',
      ]) {
        const page = await browser.get(path);
        assert.equal(page.statusCode, 200, path);
        // The log, the watchlist and the forecasts (no batch seen) are empty here; the other pages list dated rows.
        if (!/deliveries|watchlist|forecasts/.test(path)) {
          assert.match(page.body, /<time class="date" datetime="2026-03-\d\dT[\d:.]+Z">2026-03-\d\d/, path);
        }
        const stray = DATE.exec(outsideDateElements(page.body));
        assert.equal(
          stray,
          null,
          `${path}: a date outside a <time class="date">: …${stray?.input.slice(Math.max(0, stray.index - 80), stray.index + 20)}`,
        );
      }
    });

    it('the stylesheet keeps a date element on one line', async () => {
      const css = (await t.app.inject('/dashboard/assets/dashboard.css')).body;
      assert.match(css, /\.date \{\s*white-space: nowrap;\s*\}/);
    });
  });
}
