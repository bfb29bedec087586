import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileFeedMatcher, FEED_COLUMN_NAMES, FeedColumns, parseFeedFilters } from '@repo/feed-index';
import { databaseTargets } from '@repo/server-kit/testing';
import { RowIndex } from '../src/delivery/row-index.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-10T12:00:00Z');
const YEAR = 365.2425 * DAY;

for (const target of databaseTargets()) {
  describe(`GET /v1/domains (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    const get = (query: string) => t.app.inject({ url: `/v1/domains${query}`, headers: bearer(key) });

    before(async () => {
      t = await createTestApp({ target, env: { FEED_COUNT_CACHE_SECONDS: '0' } });
      key = await t.keyFor('starter');
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values([
          feedRow('oldgold.com', {
            dropped_at: NOW - 1 * DAY,
            first_archived_at: NOW - 12 * YEAR,
            da: 45,
            tf: 30,
            alt_tld_count: 3,
            alt_tlds: 'net,org,info',
          }),
          feedRow('fresh-1.net', {
            dropped_at: NOW - 6 * HOUR,
            first_archived_at: NOW - 2 * YEAR,
            da: 10,
            tf: 5,
            alt_tld_count: 0,
            alt_tlds: '',
          }),
          feedRow('middle.org', { dropped_at: NOW - 3 * DAY, first_archived_at: NOW - 6 * YEAR, da: 30, tf: null }),
          feedRow('noarchive.com', { dropped_at: NOW - 5 * DAY }),
          feedRow('waiting.com', {
            status: 'pending-delete',
            dropped_at: null,
            verified_at: NOW - DAY,
            expected_drop_at: NOW + 2 * DAY,
          }),
          feedRow('fresh.com', { status: 'left-zone', dropped_at: null, verified_at: null }),
          feedRow('back.com', { status: 'returned', dropped_at: null }),
        ])
        .execute();
    });
    after(async () => t.close());

    it('returns only RDAP-verified drops by default, newest first, with the documented row shape', async () => {
      const response = await get('');
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.deepEqual(
        body.data.map((row: { domain: string }) => row.domain),
        ['fresh-1.net', 'oldgold.com', 'middle.org', 'noarchive.com'],
      );
      assert.deepEqual(
        { total: body.meta.total, limit: body.meta.limit, offset: body.meta.offset },
        { total: 4, limit: 50, offset: 0 },
      );
      assert.deepEqual(body.data[1], {
        domain: 'oldgold.com',
        tld: 'com',
        status: 'dropped',
        dropped_at: new Date(NOW - DAY).toISOString(),
        first_archived: new Date(NOW - 12 * YEAR).toISOString().slice(0, 10),
        age_years: 12,
        alt_tld_count: 3,
        alt_tlds: ['net', 'org', 'info'],
        da: 45,
        tf: 30,
        length: 7,
        has_hyphen: false,
        has_digit: false,
        verified_at: new Date(NOW).toISOString(),
        expected_drop_at: null,
        first_seen: null,
        expected_drop_earliest: null,
        expected_drop_latest: null,
      });
      assert.equal(body.data[0].has_hyphen, true);
      assert.equal(body.data[0].has_digit, true);
      assert.equal(body.data[3].age_years, null);
    });

    it('filters by tld, age, DA, TF and drop dates', async () => {
      const domains = async (query: string) => {
        const response = await get(query);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().data.map((row: { domain: string }) => row.domain);
      };
      assert.deepEqual(await domains('?tld=com'), ['oldgold.com', 'noarchive.com']);
      assert.deepEqual(await domains('?tld=net,org'), ['fresh-1.net', 'middle.org']);
      assert.deepEqual(await domains('?min_years=6'), ['oldgold.com', 'middle.org']);
      assert.deepEqual(await domains('?min_da=30'), ['oldgold.com', 'middle.org']);
      assert.deepEqual(await domains('?min_tf=10'), ['oldgold.com']);
      assert.deepEqual(await domains('?dropped_after=2026-03-07&dropped_before=2026-03-09T12:00:00Z'), ['middle.org']);
      assert.deepEqual(await domains('?tld=com&min_years=10&min_da=40&min_tf=30'), ['oldgold.com']);
      assert.deepEqual(await domains('?status=pending-delete'), ['waiting.com']);
      assert.deepEqual(await domains('?status=left-zone'), ['fresh.com']);
      assert.deepEqual((await domains('?status=any')).length, 6);
    });

    it('filters by length, hyphens, digits, label text and alt-TLD demand', async () => {
      const domains = async (query: string) => {
        const response = await get(query);
        assert.equal(response.statusCode, 200, response.body);
        return response.json().data.map((row: { domain: string }) => row.domain);
      };
      assert.deepEqual(await domains('?max_length=6'), ['middle.org']);
      assert.deepEqual(await domains('?hyphens=false'), ['oldgold.com', 'middle.org', 'noarchive.com']);
      assert.deepEqual(await domains('?digits=false&hyphens=true'), ['oldgold.com', 'middle.org', 'noarchive.com']);
      assert.deepEqual(await domains('?contains=GOLD'), ['oldgold.com']);
      assert.deepEqual(await domains('?contains=-1'), ['fresh-1.net']);
      assert.deepEqual(await domains('?min_alt_tlds=1'), ['oldgold.com']);
      assert.deepEqual(await domains('?min_alt_tlds=0'), ['fresh-1.net', 'oldgold.com']);
    });

    it('gives pending-delete rows their expected drop and filters on it', async () => {
      const response = await get('?status=pending-delete&drops_after=2026-03-12&drops_before=2026-03-13');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(
        response
          .json()
          .data.map((row: { domain: string; expected_drop_at: string }) => [row.domain, row.expected_drop_at]),
        [['waiting.com', new Date(NOW + 2 * DAY).toISOString()]],
      );
      assert.deepEqual((await get('?status=pending-delete&drops_before=2026-03-12')).json().data, []);
    });

    it('matches in memory exactly as the SQL filter does (the feed index and saved-filter matcher)', async () => {
      const rows = await t.app.ctx.database.db.selectFrom('feed_domains').select(FEED_COLUMN_NAMES).execute();
      const index = new RowIndex(rows);
      const queries = [
        '',
        '?status=any',
        '?tld=com&min_da=20',
        '?min_years=6',
        '?max_length=7&hyphens=false',
        '?contains=o&digits=false&status=any',
        '?min_alt_tlds=0&min_tf=1',
        '?dropped_after=2026-03-07&dropped_before=2026-03-09T12:00:00Z',
        '?status=pending-delete&drops_after=2026-03-11',
        '?status=left-zone',
      ];
      for (const query of queries) {
        const parsed = Object.fromEntries(new URLSearchParams(query));
        const filters = parseFeedFilters(parsed, t.config.TRACKED_TLDS);
        // The plain scan (the feed index's path) and the bucketed one (saved filters) agree with SQL.
        const matches = compileFeedMatcher(FeedColumns.fromRows(rows), filters, NOW);
        const scanned = rows
          .filter((_, i) => matches(i))
          .map((row) => row.domain)
          .sort();
        const inMemory = Array.from(index.match(filters, NOW), (i) => rows[i]!.domain).sort();
        assert.deepEqual(scanned, inMemory, query);
        const viaSql = (await get(`${query}${query ? '&' : '?'}limit=100`))
          .json()
          .data.map((row: { domain: string }) => row.domain);
        assert.deepEqual(inMemory, viaSql.sort(), query);
      }
    });

    it('sorts by age, da, tf and alt_tld_count with unknown values last', async () => {
      const order = async (sort: string) =>
        (await get(`?sort=${sort}`)).json().data.map((row: { domain: string }) => row.domain);
      assert.deepEqual(await order('age'), ['oldgold.com', 'middle.org', 'fresh-1.net', 'noarchive.com']);
      assert.deepEqual(await order('da'), ['oldgold.com', 'middle.org', 'fresh-1.net', 'noarchive.com']);
      assert.deepEqual(await order('tf'), ['oldgold.com', 'fresh-1.net', 'middle.org', 'noarchive.com']);
      assert.deepEqual((await order('alt_tld_count')).slice(0, 2), ['oldgold.com', 'fresh-1.net']);
    });

    it('pages with limit and offset up to the documented maxima', async () => {
      const page = (await get('?limit=2&offset=1')).json();
      assert.deepEqual(
        page.data.map((row: { domain: string }) => row.domain),
        ['oldgold.com', 'middle.org'],
      );
      assert.equal(page.meta.total, 4);
      assert.equal((await get('?limit=100&offset=10000')).statusCode, 200);
      assert.deepEqual((await get('?offset=10000')).json().data, []);
    });

    const badRequests: Array<[string, string]> = [
      ['?limit=101', 'invalid_limit'],
      ['?limit=0', 'invalid_limit'],
      ['?limit=ten', 'invalid_limit'],
      ['?limit=-1', 'invalid_limit'],
      ['?offset=10001', 'invalid_offset'],
      ['?offset=1.5', 'invalid_offset'],
      ['?tld=dev', 'unknown_tld'],
      ['?tld=com,,net', 'invalid_tld'],
      ['?min_years=101', 'invalid_min_years'],
      ['?min_da=abc', 'invalid_min_da'],
      ['?min_tf=1000', 'invalid_min_tf'],
      ['?dropped_after=yesterday', 'invalid_date'],
      ['?dropped_after=2026-02-30', 'invalid_date'],
      ['?dropped_before=2026-03-01T25:00:00Z', 'invalid_date'],
      ['?dropped_before=2026-03-01T10:00:00', 'invalid_date'],
      ['?dropped_after=2026-03-05&dropped_before=2026-03-01', 'invalid_date_range'],
      ['?status=gone', 'invalid_status'],
      ['?max_length=0', 'invalid_max_length'],
      ['?max_length=64', 'invalid_max_length'],
      ['?hyphens=no', 'invalid_hyphens'],
      ['?digits=0', 'invalid_digits'],
      ['?contains=a%25b', 'invalid_contains'],
      ['?contains=', 'invalid_contains'],
      ['?contains=ab%00', 'invalid_contains'],
      ['?contains=' + 'a'.repeat(64), 'invalid_contains'],
      ['?min_alt_tlds=101', 'invalid_min_alt_tlds'],
      ['?status=pending-delete&drops_after=soon', 'invalid_date'],
      ['?status=pending-delete&drops_after=2026-03-12&drops_before=2026-03-11', 'invalid_date_range'],
      ['?drops_before=2026-03-12', 'drops_filter_needs_pending_delete'],
      ['?sort=random', 'invalid_sort'],
    ];
    for (const [query, code] of badRequests) {
      it(`answers ${query} with 400 ${code}`, async () => {
        const response = await get(query);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().error.code, code);
        assert.ok(response.json().error.message.length > 10);
      });
    }

    it('needs a key', async () => {
      const response = await t.app.inject('/v1/domains');
      assert.equal(response.statusCode, 401);
    });
  });
}
