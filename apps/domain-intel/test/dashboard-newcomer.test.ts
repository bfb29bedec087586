import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { inPersonTerms } from '../src/dashboard/time-words.ts';
import { rowsSelect } from '../src/routes/dashboard/feed.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const at = (iso: string) => Date.parse(iso);

describe('reset times in a person’s terms', () => {
  it('says how long and at what time, rounding minutes up', () => {
    const midnight = at('2026-03-11T00:00:00Z');
    assert.equal(inPersonTerms(at('2026-03-10T18:13:00Z'), midnight), 'in 5 h 47 min, at 00:00 UTC');
    assert.equal(inPersonTerms(at('2026-03-10T12:00:00Z'), midnight), 'in 12 h, at 00:00 UTC');
    assert.equal(inPersonTerms(at('2026-03-10T23:59:30Z'), midnight), 'in 1 min, at 00:00 UTC');
    assert.equal(inPersonTerms(at('2026-03-10T23:15:00Z'), midnight), 'in 45 min, at 00:00 UTC');
    assert.equal(inPersonTerms(at('2026-03-10T00:00:00Z'), midnight), 'in 1 d, on 2026-03-11 at 00:00 UTC');
    assert.equal(
      inPersonTerms(at('2026-03-10T06:00:00Z'), at('2026-03-12T09:30:00Z')),
      'in 2 d 3 h, on 2026-03-12 at 09:30 UTC',
    );
  });
});

describe('the feed explorer’s Rows select', () => {
  it('selects the URL’s limit, adding it to the choices when it is another valid size', () => {
    assert.deepEqual(rowsSelect(undefined), { options: [25, 50, 100], selected: 50 });
    assert.deepEqual(rowsSelect('25'), { options: [25, 50, 100], selected: 25 });
    assert.deepEqual(rowsSelect('10'), { options: [10, 25, 50, 100], selected: 10 });
    assert.deepEqual(rowsSelect('500'), { options: [25, 50, 100], selected: 50 });
    assert.deepEqual(rowsSelect('abc'), { options: [25, 50, 100], selected: 50 });
  });
});

describe('dashboard pages agree with the URL and speak plainly', () => {
  let t: TestApp;
  let browser: DashboardBrowser;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { FEED_COUNT_CACHE_SECONDS: '0' } });
    await t.app.ctx.database.db
      .insertInto('feed_domains')
      .values(Array.from({ length: 30 }, (_, i) => feedRow(`rows${String(i).padStart(2, '0')}.com`)))
      .execute();
    const email = `newcomer-${Date.now()}@example.com`;
    const key = await t.keyFor('free', email);
    browser = new DashboardBrowser(t.app);
    assert.equal((await browser.signIn(email, key)).statusCode, 303);
  });
  after(async () => t?.close());

  const selectedRows = (html: string) =>
    /<select name="limit">([\s\S]*?)<\/select>/.exec(html)?.[1]?.match(/<option selected>(\d+)<\/option>/)?.[1];
  const tableRows = (html: string) => (html.match(/<tr>\s*<td>rows\d\d\.com<\/td>/g) ?? []).length;

  it('shows as many rows as the Rows select says, whatever the URL’s limit', async () => {
    for (const [query, rows] of [
      ['', '50'],
      ['?limit=25', '25'],
      ['?limit=10', '10'],
      ['?limit=7&offset=3', '7'],
    ] as const) {
      const page = await browser.get(`/dashboard/feed${query}`);
      assert.equal(page.statusCode, 200, query);
      assert.equal(selectedRows(page.body), rows, `${query}: the select`);
      assert.equal(tableRows(page.body), Math.min(Number(rows), 30 - (query.includes('offset') ? 3 : 0)), query);
    }
  });

  it('says when the quota resets in hours and minutes, and at what UTC time', async () => {
    t.clock.set(at('2026-03-10T18:13:00Z'));
    const overview = await browser.get('/dashboard');
    assert.match(
      overview.body,
      /data-testid="quota-reset">Resets <time datetime="2026-03-11T00:00:00.000Z">in 5 h 47 min, at 00:00 UTC<\/time>/,
    );
  });
});
