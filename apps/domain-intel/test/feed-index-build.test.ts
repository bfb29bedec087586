import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FEED_SORTS } from '@repo/contracts/domain-intel';
import type { FeedFilters } from '@repo/feed-index';
import {
  buildFeedIndexPartsInWorker,
  FEED_COLUMN_NAMES,
  FeedColumnChunks,
  type FeedColumnRow,
  FeedColumns,
  FeedIndex,
} from '@repo/feed-index';
import {
  buildFeedIndexParts,
  type FeedIndexParts,
  feedIndexPartsState,
  transferablesOf,
} from '@repo/feed-index/feed-index-parts.ts';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, testTimeout } from '@repo/server-kit/testing';
import { FeedService } from '../src/feed/feed-service.ts';
import { EVERY_ROW, feedRow } from './feed-helpers.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const DAY = 86_400_000;
const failing = (name: 'throws' | 'exits' | 'hangs' | 'hangs-after-one-row') =>
  new URL(`./fixtures/feed-build-worker/${name}.js`, import.meta.url);

for (const target of databaseTargets()) {
  describe(`feed index build in a worker thread (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;

    before(async () => {
      t = await createTestApp({ target });
      const rows = Array.from({ length: 500 }, (_, i) =>
        feedRow(`d${(i * 7919) % 500}x${i % 3 === 0 ? '-' : ''}.${['com', 'net', 'org'][i % 3]}`, {
          da: i % 5 === 0 ? null : i % 101,
          tf: i % 7 === 0 ? null : i % 53,
          alt_tld_count: i % 4,
          dropped_at: i % 11 === 0 ? null : NOW - (i % 17) * DAY,
          first_archived_at: i % 13 === 0 ? null : NOW - (i % 9) * 365 * DAY,
        }),
      );
      for (let i = 0; i < rows.length; i += 100) {
        await t.app.ctx.database.db
          .insertInto('feed_domains')
          .values(rows.slice(i, i + 100))
          .execute();
      }
    });
    after(async () => t.close());

    const service = (indexWorker?: URL) => {
      const errors: Array<{ error: unknown; version: number }> = [];
      const feed = new FeedService(t.app.ctx.database.db, t.app.ctx.database.dialect, new ManualClock(NOW), {
        countCacheSeconds: 0,
        index: 'memory',
        indexCheckSeconds: 0,
        indexWorker,
        onIndexError: (error, version) => errors.push({ error, version }),
      });
      return { feed, errors };
    };

    test('the index built in the worker answers exactly as one built on this thread', async () => {
      const { feed, errors } = service();
      const inWorker = await feed.index();
      assert.ok(inWorker, 'built');
      assert.deepEqual(errors, []);
      const rows = (await t.app.ctx.database.db
        .selectFrom('feed_domains')
        .select(FEED_COLUMN_NAMES)
        .orderBy('domain')
        .execute()) as FeedColumnRow[];
      const inThread = FeedIndex.fromColumns(FeedColumns.fromRows(rows), 0);
      assert.equal(inWorker.columns.size, 500);
      const filters: FeedFilters[] = [
        EVERY_ROW,
        { ...EVERY_ROW, tlds: ['net'], minDa: 40 },
        { ...EVERY_ROW, hyphens: false, minTf: 10, maxLength: 5 },
        { ...EVERY_ROW, minAltTlds: 2, droppedAfter: NOW - 5 * DAY, contains: '1' },
        { ...EVERY_ROW, status: 'dropped', minYears: 3 },
      ];
      for (const filter of filters) {
        for (const sort of FEED_SORTS) {
          for (const offset of [0, 7, 120]) {
            const page = { sort, limit: 50, offset };
            assert.deepEqual(inWorker.page(filter, page, NOW), inThread.page(filter, page, NOW), `${sort} ${offset}`);
          }
        }
      }
    });

    test('rows loaded in chunks (each numbering the TLDs in the order it met them) index as the same rows in one set of columns', async () => {
      const rows = (await t.app.ctx.database.db
        .selectFrom('feed_domains')
        .select(FEED_COLUMN_NAMES)
        .orderBy('domain')
        .execute()) as FeedColumnRow[];
      const whole = FeedIndex.fromColumns(FeedColumns.fromRows(rows), 0);
      const chunked = new FeedColumnChunks(7);
      for (const row of rows) chunked.append(row);
      assert.equal(chunked.size, 500);
      const chunks = chunked.state();
      const gathered = FeedIndex.fromColumns(chunks, 0);
      assert.deepEqual(chunks.chunks, [], 'the chunks are let go once gathered');
      const again = new FeedColumnChunks(7);
      for (const row of rows) again.append(row);
      const inWorker = await FeedIndex.build(again, 0);
      for (const filter of [EVERY_ROW, { ...EVERY_ROW, tlds: ['org'], minTf: 5 }, { ...EVERY_ROW, contains: 'x-' }]) {
        for (const sort of FEED_SORTS) {
          const page = { sort, limit: 100, offset: 50 };
          assert.deepEqual(gathered.page(filter, page, NOW), whole.page(filter, page, NOW), `gathered ${sort}`);
          assert.deepEqual(inWorker.page(filter, page, NOW), whole.page(filter, page, NOW), `worker ${sort}`);
        }
      }
    });

    for (const failure of ['throws', 'exits'] as const) {
      test(`a build worker that ${failure === 'throws' ? 'throws' : 'dies'} leaves the SQL path answering and is reported once`, async () => {
        const { feed, errors } = service(failing(failure));
        assert.equal(await feed.index(), null, 'no index');
        assert.equal(errors.length, 1);
        assert.match(String(errors[0]!.error), failure === 'throws' ? /the build broke/ : /exit code 3/);
        const answer = await feed.list(EVERY_ROW, { sort: 'dropped_at', limit: 5, offset: 0 });
        assert.equal(answer.total, 500, 'answered by SQL');
        assert.equal(answer.records.length, 5);
        // The same feed version is not rebuilt (and reported) at every request.
        assert.equal(await feed.index(), null);
        await feed.list(EVERY_ROW, { sort: 'da', limit: 5, offset: 0 });
        assert.equal(errors.length, 1);
      });
    }

    test('a build superseded by a newer feed version is stopped and dropped, not reported', async () => {
      const { feed, errors } = service(failing('hangs'));
      const superseded = feed.index();
      // Let the build reach its worker before the feed moves on.
      await new Promise((resolve) => setTimeout(resolve, testTimeout(200)));
      await feed.invalidate();
      assert.equal(await superseded, null);
      assert.deepEqual(errors, []);
    });

    test('an aborted build stops its worker and rejects with the reason', async () => {
      const columns = FeedColumns.fromRows([]);
      const abort = new AbortController();
      const building = buildFeedIndexPartsInWorker(FeedColumnChunks.of(columns, 0), {
        signal: abort.signal,
        entry: failing('hangs'),
      });
      abort.abort(new Error('superseded'));
      await assert.rejects(building, /superseded/);
    });
    test("the previous version's index answers while a build runs, for FEED_INDEX_STALE_SECONDS from the first move", async () => {
      const own = await createTestApp({ target });
      const db = own.app.ctx.database.db;
      const clock = new ManualClock(NOW);
      const feed = new FeedService(db, own.app.ctx.database.dialect, clock, {
        countCacheSeconds: 0,
        index: 'memory',
        indexCheckSeconds: 0,
        indexStaleSeconds: 600,
        indexWorker: failing('hangs-after-one-row'),
      });
      const total = async () => (await feed.list(EVERY_ROW, { sort: 'dropped_at', limit: 5, offset: 0 })).total;
      const pipelineRun = async (domain: string) => {
        await db.insertInto('feed_domains').values(feedRow(domain)).execute();
        await feed.invalidate();
      };
      try {
        await pipelineRun('one.com');
        assert.equal((await feed.index())?.columns.size, 1, 'the one-row feed is built');
        await pipelineRun('two.com');
        assert.equal(await total(), 1, 'the previous index answers while the new one builds');
        clock.advance(300_000);
        await pipelineRun('three.com');
        assert.equal(await total(), 1, 'a second move does not restart the window');
        clock.advance(299_999);
        assert.equal(await total(), 1, 'still within 600 s of the first move');
        clock.advance(1);
        assert.equal(await total(), 3, 'past the window SQL answers: never an older feed');
      } finally {
        await feed.invalidate();
        await own.close();
      }
    });
  });
}

/** 1,000 rows in chunks of 64, as a load gives them. */
function thousandRows(): FeedColumnChunks {
  const chunks = new FeedColumnChunks(64);
  for (let i = 0; i < 1_000; i++) {
    const label = `n${i}ame-${i % 10}`;
    chunks.append({
      domain: `${label}.com`,
      tld: 'com',
      status: 'dropped',
      dropped_at: NOW - (i % 30) * DAY,
      first_archived_at: NOW - (i % 9) * 365 * DAY,
      alt_tld_count: i % 3,
      da: i % 90,
      tf: i % 40,
      length: label.length,
      has_hyphen: 1,
      has_digit: 1,
      expected_drop_at: null,
    });
  }
  return chunks;
}

/** The typed arrays of the parts that grow with the rows (1,000 rows: a bitmap's 125 bytes and up), by path. */
function perRowArrays(parts: FeedIndexParts): Array<{ path: string; view: ArrayBufferView }> {
  const arrays: Array<{ path: string; view: ArrayBufferView }> = [];
  const walk = (value: unknown, path: string) => {
    if (ArrayBuffer.isView(value)) arrays.push({ path, view: value });
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
    }
  };
  walk(feedIndexPartsState(parts), 'parts');
  return arrays.filter(({ view }) => view.byteLength >= 1_000 / 8);
}

test('the parts the worker hands back that grow with the rows are on shared memory (no transfer for the API thread to absorb)', async () => {
  const parts = await buildFeedIndexPartsInWorker(thousandRows());
  const perRow = perRowArrays(parts);
  // Columns, grouping, bitmaps and slices, label grams, each sort's order and rank.
  assert.ok(perRow.length > 40, `${perRow.length} arrays`);
  const unshared = perRow.filter(({ view }) => !(view.buffer instanceof SharedArrayBuffer)).map(({ path }) => path);
  assert.deepEqual(unshared, []);
  assert.deepEqual(
    transferablesOf(feedIndexPartsState(parts)).filter((buffer) => buffer.byteLength >= 1_000 / 8),
    [],
    'nothing of that size is transferred',
  );
});

test('parts built on the main thread are ordinary arrays, which V8 counts when it decides to collect', () => {
  const perRow = perRowArrays(buildFeedIndexParts(thousandRows().state()));
  assert.ok(perRow.length > 40, `${perRow.length} arrays`);
  const shared = perRow.filter(({ view }) => view.buffer instanceof SharedArrayBuffer).map(({ path }) => path);
  assert.deepEqual(shared, []);
});
