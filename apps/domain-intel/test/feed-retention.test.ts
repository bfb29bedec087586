import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FeedPage, parseFeedFilters } from '@repo/feed-index';
import { databaseTargets } from '@repo/server-kit/testing';
import { ASSUMED_BYTES_PER_ROW, indexRowCeiling } from '../src/feed/feed-index-load.ts';
import { feedRow } from './feed-helpers.ts';
import { createTestApp } from './helpers.ts';

const DAY = 86_400_000;
const PAGE: FeedPage = { sort: 'dropped_at', limit: 10, offset: 0 };

for (const target of databaseTargets()) {
  describe(`feed index retention, FEED_INDEX_RETENTION_DAYS (${target.name})`, { skip: target.skip }, () => {
    test('older drops leave the index; queries that can match them are answered by SQL, the rest by the index', async () => {
      const t = await createTestApp({ target, env: { FEED_INDEX: 'memory', FEED_INDEX_RETENTION_DAYS: '30' } });
      try {
        const now = t.clock.now();
        await t.app.ctx.database.db
          .insertInto('feed_domains')
          .values([
            feedRow('recent-a.com', { dropped_at: now - 2 * DAY }),
            feedRow('recent-b.net', { dropped_at: now - 20 * DAY }),
            feedRow('old.com', { dropped_at: now - 60 * DAY }),
            feedRow('coming.com', { status: 'pending-delete', dropped_at: null, expected_drop_at: now + DAY }),
          ])
          .execute();
        await t.app.ctx.feed.invalidate();
        const index = await t.app.ctx.feed.index();
        assert.ok(index);
        assert.deepEqual(
          Array.from({ length: index.columns.size }, (_, i) => index.columns.domain(i)).sort(),
          ['coming.com', 'recent-a.com', 'recent-b.net'],
          'the drop older than 30 days is not in the index; a row not dropped is',
        );

        const every = parseFeedFilters({}, ['com', 'net']);
        assert.equal(index.covers(every), false);
        const all = await t.app.ctx.feed.list(every, PAGE);
        assert.deepEqual(
          all.records.map((record) => record.domain),
          ['recent-a.com', 'recent-b.net', 'old.com'],
          'without dropped_after the SQL path answers, old drops included',
        );
        assert.equal(all.total, 3);

        const recent = parseFeedFilters({ dropped_after: new Date(now - 25 * DAY).toISOString() }, ['com', 'net']);
        assert.equal(index.covers(recent), true, 'dropped_after within the retention: the index answers');
        const fromIndex = await t.app.ctx.feed.list(recent, PAGE);
        assert.deepEqual(
          fromIndex.records.map((record) => record.domain),
          ['recent-a.com', 'recent-b.net'],
        );
        assert.equal(fromIndex.total, 2);

        const older = parseFeedFilters({ dropped_after: new Date(now - 90 * DAY).toISOString() }, ['com', 'net']);
        assert.equal(index.covers(older), false);
        assert.equal((await t.app.ctx.feed.list(older, PAGE)).total, 3);
      } finally {
        await t.close();
      }
    });

    // Three rows either way: as rows, and as megabytes at the bytes per row assumed before a build large enough to measure.
    const ceilings = {
      FEED_INDEX_MAX_ROWS: '3',
      FEED_INDEX_MAX_MB: String((3.5 * ASSUMED_BYTES_PER_ROW) / 1_048_576),
    };
    for (const [setting, value] of Object.entries(ceilings)) {
      test(`${setting}: the oldest days of drops leave the index first, whole; SQL answers for them`, async () => {
        const t = await createTestApp({ target, env: { FEED_INDEX: 'memory', [setting]: value } });
        try {
          const now = t.clock.now();
          await t.app.ctx.database.db
            .insertInto('feed_domains')
            .values([
              feedRow('one-day.com', { dropped_at: now - DAY }),
              feedRow('two-days.com', { dropped_at: now - 2 * DAY }),
              feedRow('three-days-a.com', { dropped_at: now - 3 * DAY }),
              feedRow('three-days-b.com', { dropped_at: now - 3 * DAY + 1 }),
              feedRow('coming.com', { status: 'pending-delete', dropped_at: null, expected_drop_at: now + DAY }),
            ])
            .execute();
          await t.app.ctx.feed.invalidate();
          const index = await t.app.ctx.feed.index();
          assert.ok(index);
          assert.deepEqual(
            Array.from({ length: index.columns.size }, (_, i) => index.columns.domain(i)).sort(),
            ['coming.com', 'one-day.com', 'two-days.com'],
            'three rows: the row not dropped and the two newest days; the third day leaves whole',
          );
          const every = parseFeedFilters({}, ['com']);
          assert.equal((await t.app.ctx.feed.list(every, PAGE)).total, 4, 'SQL answers with every drop');
          const recent = parseFeedFilters({ dropped_after: new Date(now - 2 * DAY - 3_600_000).toISOString() }, [
            'com',
          ]);
          assert.equal(index.covers(recent), true);
          assert.equal((await t.app.ctx.feed.list(recent, PAGE)).total, 2);
        } finally {
          await t.close();
        }
      });
    }
  });
}

describe('FEED_INDEX_MAX_MB as rows (indexRowCeiling)', () => {
  test('megabytes ÷ the last build’s bytes per row, the assumed figure before one; the lower of the two settings', () => {
    assert.equal(indexRowCeiling(0, 0, null), null, 'neither set: no ceiling');
    assert.equal(indexRowCeiling(5, 0, 100), 5);
    assert.equal(indexRowCeiling(0, 100, 100), 1_048_576);
    assert.equal(indexRowCeiling(0, 1, null), Math.floor(1_048_576 / ASSUMED_BYTES_PER_ROW));
    assert.equal(indexRowCeiling(2_000_000, 100, 100), 1_048_576, 'the bytes are the lower');
    assert.equal(indexRowCeiling(1_000, 100, 100), 1_000, 'the rows are the lower');
  });
});
