import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser, embeddedJson, testId } from './dashboard-session.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const ROWS = 240;

interface Drops {
  days: string[];
  series: Array<{ tld: string; counts: number[] }>;
}

for (const target of databaseTargets()) {
  describe(`dashboard: feed explorer, drops chart and CSV (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target, env: { FEED_COUNT_CACHE_SECONDS: '0' } });
      // 240 verified drops: com, net, org in turn, one day apart over 40 days, DA 0..79.
      const rows = Array.from({ length: ROWS }, (_, i) =>
        feedRow(`name${String(i).padStart(3, '0')}.${['com', 'net', 'org'][i % 3]}`, {
          dropped_at: NOW - (i % 40) * DAY,
          da: i % 80,
        }),
      );
      rows.push(feedRow('waiting.com', { status: 'pending-delete', dropped_at: null }));
      await t.app.ctx.database.db.insertInto('feed_domains').values(rows).execute();
    });
    after(async () => t?.close());

    async function signedIn(plan: 'free' | 'enterprise') {
      const email = `feed-${plan}-${Math.random().toString(36).slice(2)}@example.com`;
      const key = await t.keyFor(plan, email);
      const browser = new DashboardBrowser(t.app);
      assert.equal((await browser.signIn(email, key)).statusCode, 303);
      return browser;
    }

    it('lists the feed with the filters of /v1/domains and pages through it', async () => {
      const browser = await signedIn('free');
      const all = await browser.get('/dashboard/feed');
      assert.equal(all.statusCode, 200);
      assert.equal(testId(all.body, 'feed-total'), String(ROWS));
      assert.ok(!all.body.includes('waiting.com'), 'default status is dropped');

      const filtered = await browser.get('/dashboard/feed?tld=net&tld=org&min_da=70&min_years=&limit=25');
      const expected = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 3 !== 0 && i % 80 >= 70);
      assert.equal(testId(filtered.body, 'feed-total'), String(expected.length));
      assert.ok(!/name\d{3}\.com/.test(filtered.body));
      assert.match(filtered.body, /value="net" checked/);

      const second = await browser.get('/dashboard/feed?limit=100&offset=100');
      assert.match(second.body, /Rows 101–200 of 240/);
      assert.match(second.body, /rel="prev"/);
      assert.match(second.body, /rel="next"/);
    });

    it('explains a bad filter instead of failing', async () => {
      const browser = await signedIn('free');
      const response = await browser.get('/dashboard/feed?min_da=500');
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /min_da must be a whole number from 0 to 100/);
      const unknown = await browser.get('/dashboard/feed?tld=museum');
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.body, /does not track museum/);
    });

    it('charts verified drops per day and TLD over the last 30 days', async () => {
      const browser = await signedIn('free');
      const drops = embeddedJson<Drops>((await browser.get('/dashboard/feed')).body, 'drops-data');
      assert.equal(drops.days.length, 30);
      assert.equal(drops.days.at(-1), '2026-03-10');
      assert.deepEqual(
        drops.series.map((series) => series.tld),
        ['com', 'net', 'org'],
      );
      // Rows i with i % 40 < 30 dropped inside the window: 180 of 240.
      const total = drops.series.flatMap((series) => series.counts).reduce((sum, count) => sum + count, 0);
      assert.equal(total, 180);
      const today = drops.series.map((series) => series.counts.at(-1));
      // i % 40 === 0: i = 0, 40, 80, 120, 160, 200 → com, net, org, com, net, org.
      assert.deepEqual(today, [2, 2, 2]);

      const netOnly = embeddedJson<Drops>((await browser.get('/dashboard/feed?tld=net')).body, 'drops-data');
      assert.deepEqual(
        netOnly.series.map((series) => series.tld),
        ['net'],
      );
    });

    it('downloads the first 100 rows as CSV on Free and every row on Enterprise', async () => {
      const free = await signedIn('free');
      const limited = await free.get('/dashboard/feed.csv?tld=com');
      assert.equal(limited.statusCode, 200);
      assert.match(String(limited.headers['content-type']), /^text\/csv/);
      assert.match(String(limited.headers['content-disposition']), /dropped-domains-2026-03-10\.csv/);
      assert.equal(limited.headers['x-export-scope'], 'first-100');
      const limitedLines = limited.body.trim().split('\n');
      assert.equal(
        limitedLines[0],
        'domain,tld,status,dropped_at,first_archived,age_years,alt_tld_count,alt_tlds,da,tf,length,has_hyphen,has_digit,verified_at,expected_drop_at,first_seen,expected_drop_earliest,expected_drop_latest',
      );
      assert.equal(limitedLines.length, 1 + 80, 'all 80 .com rows fit in the first page');
      const everything = await free.get('/dashboard/feed.csv');
      assert.equal(everything.body.trim().split('\n').length, 1 + 100);

      const enterprise = await signedIn('enterprise');
      const full = await enterprise.get('/dashboard/feed.csv');
      assert.equal(full.headers['x-export-scope'], 'all');
      assert.equal(full.body.trim().split('\n').length, 1 + ROWS);

      const anonymous = await new DashboardBrowser(t.app).get('/dashboard/feed.csv');
      assert.equal(anonymous.statusCode, 401);
      const page = await new DashboardBrowser(t.app).get('/dashboard/feed');
      assert.equal(page.statusCode, 303);
      assert.equal(page.headers.location, '/dashboard');
    });

    it('serves Chart.js from node_modules and the dashboard script', async () => {
      const chart = await t.app.inject({ url: '/dashboard/assets/chart.umd.min.js' });
      assert.equal(chart.statusCode, 200);
      assert.match(String(chart.headers['content-type']), /javascript/);
      assert.match(chart.body, /Chart\.js v4\./);
      const script = await t.app.inject({ url: '/dashboard/assets/dashboard.js' });
      assert.match(script.body, /new Chart\(/);
    });
  });
}

describe('dashboard routes stay out of the API reference', () => {
  it('lists no /dashboard path in /openapi.json', async () => {
    const t = await createTestApp({ target: databaseTargets()[0]! });
    try {
      const paths = Object.keys((await t.app.inject({ url: '/openapi.json' })).json().paths);
      assert.ok(paths.includes('/v1/domains'));
      assert.deepEqual(
        paths.filter((path) => path.startsWith('/dashboard')),
        [],
      );
    } finally {
      await t.close();
    }
  });
});
