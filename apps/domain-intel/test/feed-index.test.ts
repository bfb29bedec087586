import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FEED_FILTER_WIRE, FEED_SORTS, FEED_STATUSES } from '@repo/contracts/domain-intel';
import { FEED_FILTERS, type FeedFilterName, type FeedFilters, FeedIndex, type FeedPage } from '@repo/feed-index';
import { databaseTargets } from '@repo/server-kit/testing';
import fc from 'fast-check';
import { loadFeedIndex } from '../src/feed/feed-index-load.ts';
import { EVERY_ROW, feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const YEAR = 365.2425 * DAY;
const TLDS = ['com', 'net', 'org'];
const STATUSES = ['dropped', 'pending-delete', 'redemption', 'left-zone', 'returned', 'new'];

// Few distinct values, so sorts have many ties (broken by domain) and bounds hit values exactly.
const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 4 });
const dayOffset = fc.integer({ min: 0, max: 12 }).map((days) => NOW - days * DAY);
// Times within a day too, so bounds fall inside a day that holds rows on both sides (the day slices' edges).
const timeOffset = fc
  .tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom(0, 1, 6, 12, 13, 23))
  .map(([days, hours]) => NOW - days * DAY - hours * 3_600_000);
const rowArbitrary = fc.record({
  label: fc.stringMatching(/^[a-c][a-c0-9-]{0,3}[a-c]$/),
  tld: fc.constantFrom(...TLDS),
  status: fc.constantFrom(...STATUSES),
  dropped_at: nullable(timeOffset),
  first_archived_at: nullable(fc.integer({ min: 0, max: 8 }).map((years) => Math.floor(NOW - years * YEAR))),
  da: nullable(fc.integer({ min: 0, max: 5 }).map((n) => n * 20)),
  tf: nullable(fc.integer({ min: 0, max: 4 }).map((n) => n * 25)),
  alt_tld_count: nullable(fc.integer({ min: 0, max: 3 })),
  expected_drop_at: nullable(dayOffset.map((time) => time + 6 * DAY)),
});

/** The label-text filters other than `contains` (ends_with, …): each gets a generator below without an entry here. */
type LabelTextName = Exclude<
  {
    [N in FeedFilterName]: (typeof FEED_FILTER_WIRE)[(typeof FEED_FILTERS)[N]['parameter']]['value'] extends 'label-text'
      ? N
      : never;
  }[FeedFilterName],
  'contains'
>;
const labelTextNames = (Object.keys(FEED_FILTERS) as FeedFilterName[]).filter(
  (name): name is LabelTextName =>
    name !== 'contains' && FEED_FILTER_WIRE[FEED_FILTERS[name].parameter].value === 'label-text',
);
// Short texts of the labels' letters, so that they often hit a label's start or end.
const labelTexts = fc.record(
  Object.fromEntries(
    labelTextNames.map((name) => [name, fc.option(fc.stringMatching(/^[a-c0-9-]{1,3}$/), { nil: null, freq: 4 })]),
  ) as Record<LabelTextName, fc.Arbitrary<string | null>>,
);

const otherFilters: fc.Arbitrary<Omit<FeedFilters, LabelTextName>> = fc
  .record({
    tlds: fc.option(fc.uniqueArray(fc.constantFrom(...TLDS, 'info'), { minLength: 1, maxLength: 3 }), { nil: null }),
    minYears: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }),
    minDa: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    minTf: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    droppedAfter: fc.option(timeOffset, { nil: null }),
    droppedBefore: fc.option(timeOffset, { nil: null }),
    status: fc.constantFrom(...FEED_STATUSES),
    maxLength: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
    hyphens: fc.constantFrom(false as const, null),
    digits: fc.constantFrom(false as const, null),
    // 1 byte (a bitmap), 2 (a union of trigrams), 3 (one trigram) and longer (candidates checked byte by byte).
    contains: fc.option(fc.stringMatching(/^[a-c0-9-]{1,6}$/), { nil: null, freq: 3 }),
    minAltTlds: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
    dropsAfter: fc.option(
      dayOffset.map((time) => time + 6 * DAY),
      { nil: null },
    ),
    dropsBefore: fc.option(
      dayOffset.map((time) => time + 6 * DAY),
      { nil: null },
    ),
  })
  .filter((f) => f.droppedAfter === null || f.droppedBefore === null || f.droppedAfter < f.droppedBefore);
const filtersArbitrary: fc.Arbitrary<FeedFilters> = fc
  .tuple(otherFilters, labelTexts)
  .map(([others, texts]) => ({ ...others, ...texts }));

const pageArbitrary: fc.Arbitrary<FeedPage> = fc.record({
  sort: fc.constantFrom(...FEED_SORTS),
  limit: fc.integer({ min: 1, max: 100 }),
  offset: fc.integer({ min: 0, max: 400 }),
});

/**
 * Labels made of a few pieces (words, a hyphen, digits, IDN punycode), so that some substrings are
 * held by hundreds of rows: more than the label grams' threshold (64 rows) for a row list of their own.
 */
const PIECES = [
  'sta',
  'tion',
  'na',
  'sing',
  'ring',
  'king',
  'the',
  'er',
  'in',
  '-',
  '1',
  '19',
  '2024',
  'xn--',
  'caf-dma',
];
const commonLabel = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 })
  .map((pieces) => pieces.join(''))
  .filter((label) => !label.startsWith('-') && !label.endsWith('-'));
/** Common (`tion`, `ing`, `in`), at label starts and ends, with `-` and digits, IDN, longer than every label, absent. */
const COMMON_NEEDLES = [
  'tion',
  'ation',
  'station',
  'ing',
  'in',
  'king',
  'ringer',
  'the',
  'sta',
  'xn--',
  'xn--caf',
  'caf-dma',
  '-',
  'g-1',
  'n-',
  '-19',
  '19',
  '2024',
  '20241',
  'ingsing',
  'thethethe',
  'tionstationsingkingringer2024-xn--',
  'zzz',
  'qing',
];

/** Writes the rows (the first of each domain) to the app's feed_domains; returns those written. */
async function insertRows(app: TestApp, rows: Array<{ label: string; tld: string } & Record<string, unknown>>) {
  const seen = new Set<string>();
  const values = rows.flatMap((row) => {
    const domain = `${row.label}.${row.tld}`;
    if (seen.has(domain)) return [];
    seen.add(domain);
    const { label: _label, ...columns } = row;
    return [feedRow(domain, columns)];
  });
  for (let i = 0; i < values.length; i += 200) {
    await app.app.ctx.database.db
      .insertInto('feed_domains')
      .values(values.slice(i, i + 200))
      .execute();
  }
  return values;
}

for (const target of databaseTargets()) {
  describe(`in-memory feed index answers exactly as SQL (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let index: FeedIndex;
    /** The same rows with filters' matches kept for reuse (as FeedService builds it). */
    let cachedIndex: FeedIndex;
    /** The same rows, every filter with a sorted bound started from that bound's slice of its sort. */
    let seededIndex: FeedIndex;

    before(async () => {
      t = await createTestApp({ target });
      const values = await insertRows(t, fc.sample(rowArbitrary, { numRuns: 900, seed: 13 }));
      index = await loadFeedIndex(t.app.ctx.database.db, 0);
      cachedIndex = await loadFeedIndex(t.app.ctx.database.db, 0, { cachedFilters: 3 });
      seededIndex = await loadFeedIndex(t.app.ctx.database.db, 0, { cachedFilters: 0, seedShare: 1 });
      assert.equal(index.columns.size, values.length);
    });
    after(async () => t.close());

    test('pages (both ways of finding one) and totals of random filter and sort combinations', async () => {
      await fc.assert(
        fc.asyncProperty(filtersArbitrary, pageArbitrary, async (filters, page) => {
          const sql = await t.app.ctx.feed.list(filters, page);
          const domains = sql.records.map((record) => record.domain);
          for (const path of [undefined, 'walk', 'by-rank'] as const) {
            const memory = index.page(filters, page, NOW, path);
            assert.equal(memory.total, sql.total, `total (${path ?? 'default'} path)`);
            assert.deepEqual(memory.domains, domains, `page (${path ?? 'default'} path)`);
          }
          assert.equal(index.count(filters, NOW), sql.total);
          assert.deepEqual(seededIndex.page(filters, page, NOW), { domains, total: sql.total }, 'seeded');
        }),
        { numRuns: 300, seed: 42 },
      );
    });

    test('a snapshot of the index, mapped read-only, answers every page and total as the index built', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'feed-snapshot-'));
      try {
        const file = path.join(dir, 'index.snapshot');
        await cachedIndex.writeSnapshot(file, { retentionDays: 0 });
        const { index: mapped, meta } = FeedIndex.fromSnapshot(file, { cachedFilters: 3 });
        assert.deepEqual(meta, { version: 0, droppedSince: null, settings: { retentionDays: 0 } });
        assert.equal(mapped.columns.size, index.columns.size);
        const maps = readFileSync('/proc/self/maps', 'utf8').split('\n');
        assert.ok(
          maps.some((line) => line.endsWith(file) && line.split(/\s+/)[1] === 'r--s'),
          'mapped read-only and shared',
        );
        // A query writing to the mapped parts would kill this process (SIGSEGV): every path is taken.
        await fc.assert(
          fc.asyncProperty(filtersArbitrary, pageArbitrary, async (filters, page) => {
            for (const path of [undefined, 'walk', 'by-rank'] as const) {
              assert.deepEqual(mapped.page(filters, page, NOW, path), index.page(filters, page, NOW, path), path);
            }
            assert.equal(mapped.count(filters, NOW), index.count(filters, NOW));
          }),
          { numRuns: 300, seed: 43 },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('contains of common needles (own row lists), at label starts and ends, with - and digits, IDN', async () => {
      const common = await createTestApp({ target });
      try {
        const labels = fc.sample(commonLabel, { numRuns: 1_500, seed: 5 });
        const rows = fc.sample(rowArbitrary, { numRuns: labels.length, seed: 6 });
        await insertRows(
          common,
          rows.map((row, i) => ({ ...row, label: labels[i]! })),
        );
        const commonIndex = await loadFeedIndex(common.app.ctx.database.db, 0);
        const others = [{}, { hyphens: false as const }, { digits: false as const, tlds: ['com'] }, { minDa: 40 }];
        let matched = 0;
        for (const contains of COMMON_NEEDLES) {
          for (const other of others) {
            const filters: FeedFilters = { ...EVERY_ROW, ...other, contains };
            for (const page of [
              { sort: 'dropped_at', limit: 100, offset: 0 },
              { sort: 'da', limit: 50, offset: 120 },
            ] satisfies FeedPage[]) {
              const sql = await common.app.ctx.feed.list(filters, page);
              const domains = sql.records.map((record) => record.domain);
              for (const path of [undefined, 'walk', 'by-rank'] as const) {
                const memory = commonIndex.page(filters, page, NOW, path);
                assert.deepEqual(memory, { domains, total: sql.total }, `${contains} ${JSON.stringify(other)} ${path}`);
              }
              matched += sql.total;
            }
          }
        }
        assert.ok(matched > 0);
        // Some needles are held by more rows than the threshold, so they were answered from their own lists.
        const tion = commonIndex.count({ ...EVERY_ROW, contains: 'tion' }, NOW);
        assert.ok(tion >= 64, `tion in ${tion} rows`);
      } finally {
        await common.close();
      }
    });

    test('filters their groups settle alone (status, TLDs, min_da: no bitmap marked) page and count as SQL', async () => {
      const groupsOnly = filtersArbitrary.map((filters) => ({
        ...EVERY_ROW,
        status: filters.status,
        tlds: filters.tlds,
        minDa: filters.minDa,
      }));
      // Offsets up to the whole feed: deep pages give up walking and fall back to the marked path.
      const deepPages = fc.record({
        sort: fc.constantFrom(...FEED_SORTS),
        limit: fc.integer({ min: 1, max: 100 }),
        offset: fc.integer({ min: 0, max: 900 }),
      });
      await fc.assert(
        fc.asyncProperty(groupsOnly, deepPages, async (filters, page) => {
          const sql = await t.app.ctx.feed.list(filters, page);
          const expected = { domains: sql.records.map((record) => record.domain), total: sql.total };
          assert.deepEqual(index.page(filters, page, NOW), expected);
          assert.deepEqual(cachedIndex.page(filters, page, NOW), expected, 'cached');
        }),
        { numRuns: 150, seed: 7 },
      );
    });

    test('reused matches answer as fresh ones, also while the clock moves (min_years)', async () => {
      const later = fc.integer({ min: 0, max: 400 * 86_400 }).map((seconds) => NOW + seconds * 1_000);
      await fc.assert(
        fc.asyncProperty(filtersArbitrary, pageArbitrary, later, async (filters, page, now) => {
          const fresh = index.page(filters, page, now);
          assert.deepEqual(cachedIndex.page(filters, page, now), fresh);
          assert.deepEqual(cachedIndex.page(filters, page, now + 1), index.page(filters, page, now + 1));
        }),
        { numRuns: 300, seed: 7 },
      );
    });

    test('the service answers from the index once it is built, and drops it when the feed changes', async () => {
      const t = await createTestApp({ target, env: { FEED_INDEX: 'memory' } });
      const service = t.app;
      try {
        const filters = EVERY_ROW;
        const page: FeedPage = { sort: 'dropped_at', limit: 5, offset: 0 };
        assert.ok(await service.ctx.feed.index());
        const before = await service.ctx.feed.list(filters, page);
        assert.equal(before.total, 0, 'a fresh database: the index is empty');
        await service.ctx.database.db.insertInto('feed_domains').values(feedRow('fresh.com')).execute();
        await service.ctx.feed.invalidate();
        const index = await service.ctx.feed.index();
        assert.equal(index?.columns.size, 1, 'rebuilt for the new feed version');
        const after = await service.ctx.feed.list(filters, page);
        assert.deepEqual(
          after.records.map((record) => record.domain),
          ['fresh.com'],
        );
        assert.equal(after.total, 1);
      } finally {
        await t.close();
      }
    });

    test('a row the pipeline changed is never served from the row cache once the feed version moved', async () => {
      // Version checked on every call; the SQL path answers during a rebuild (no stale window).
      const t = await createTestApp({
        target,
        env: { FEED_INDEX: 'memory', FEED_INDEX_CHECK_SECONDS: '0', FEED_INDEX_STALE_SECONDS: '0' },
      });
      const service = t.app;
      const feed = service.ctx.feed;
      const db = service.ctx.database.db;
      const filters = EVERY_ROW;
      const page: FeedPage = { sort: 'dropped_at', limit: 5, offset: 0 };
      const daOf = async () => {
        const listed = (await feed.list(filters, page)).records.map((record) => record.da);
        const written = (await feed.listJson(filters, page)).records.map((record) => JSON.parse(record).da);
        assert.deepEqual(written, listed, 'list and listJson answer alike');
        return listed;
      };
      const setDa = (da: number) =>
        db.updateTable('feed_domains').set({ da }).where('domain', '=', 'kept.com').execute();
      try {
        await db
          .insertInto('feed_domains')
          .values(feedRow('kept.com', { da: 10 }))
          .execute();
        await feed.invalidate();
        assert.ok(await feed.index());
        assert.deepEqual(await daOf(), [10], 'read from the database, and kept');

        // A write that bumps no version is not seen: the cache, like the index, holds one feed version.
        await setDa(15);
        assert.deepEqual(await daOf(), [10], 'served from the row cache');

        // The pipeline in this process: it writes, then invalidates.
        await setDa(20);
        await feed.invalidate();
        assert.deepEqual(await daOf(), [20], 'SQL answers while the index is rebuilt');
        assert.ok(await feed.index());
        assert.deepEqual(await daOf(), [20], 'the new version reads the row again');

        // The pipeline in another process: it writes and bumps feed_version; this one notices at its check.
        await setDa(30);
        await db
          .updateTable('feed_version')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('id', '=', 1)
          .execute();
        assert.deepEqual(await daOf(), [30], 'SQL answers once the moved version is seen');
        assert.ok(await feed.index());
        assert.deepEqual(await daOf(), [30], 'and the rebuilt index with its empty cache');
      } finally {
        await t.close();
      }
    });
    test("while the new index builds, the previous version's index answers", async () => {
      const t = await createTestApp({
        target,
        env: { FEED_INDEX: 'memory', FEED_INDEX_CHECK_SECONDS: '0', FEED_INDEX_STALE_SECONDS: '600' },
      });
      const { feed } = t.app.ctx;
      const db = t.app.ctx.database.db;
      const page: FeedPage = { sort: 'dropped_at', limit: 5, offset: 0 };
      const listed = async () => {
        const { records, total } = await feed.list(EVERY_ROW, page);
        return { domains: records.map((record) => record.domain).sort(), total };
      };
      // The pipeline of another process: it writes and bumps feed_version; this one sees it at its next call.
      const pipelineElsewhere = async (domain: string) => {
        await db.insertInto('feed_domains').values(feedRow(domain)).execute();
        await db
          .updateTable('feed_version')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('id', '=', 1)
          .execute();
      };
      try {
        await db.insertInto('feed_domains').values(feedRow('first.com')).execute();
        await feed.invalidate();
        assert.ok(await feed.index());
        assert.deepEqual(await listed(), { domains: ['first.com'], total: 1 });

        await pipelineElsewhere('second.com');
        assert.deepEqual(
          await listed(),
          { domains: ['first.com'], total: 1 },
          'the previous feed version answers while its successor builds',
        );
        assert.equal((await feed.index())?.columns.size, 2);
        assert.deepEqual(await listed(), { domains: ['first.com', 'second.com'], total: 2 }, 'then the new one');
        // The window's end (SQL answers past it) is tested with a build that never ends: feed-index-build.test.ts.
      } finally {
        await t.close();
      }
    });
  });
}
