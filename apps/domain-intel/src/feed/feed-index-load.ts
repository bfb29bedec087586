import { setImmediate } from 'node:timers/promises';
import {
  FEED_COLUMN_NAMES,
  type FeedBuildOptions,
  FeedColumnChunks,
  type FeedColumnRow,
  FeedIndex,
  type FeedIndexOptions,
} from '@repo/feed-index';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Rows a load query reads. The load runs on the API's thread: a 50,000-row batch cost 150-200 ms
 * of its CPU on SQLite (better-sqlite3 answers synchronously) and ~110 ms on PostgreSQL (row
 * parsing). On a slower machine 5,000 rows took 23-41 ms to read on SQLite and ~10 ms more to
 * append, and with a collection the API thread paused 74-152 ms (feed-index-rebuild-sqlite, 1 M
 * rows, 24 Nov 10:40 UTC); 2,000 rows: 31 ms at most, the same 8.9 s in all (1,000: 25 ms, but 10.5 s).
 */
const LOAD_BATCH = 2_000;

/**
 * Reads every feed row in the database's domain order (keyset batches, no long transaction),
 * straight into columns (no row objects are kept beyond one batch), then builds the index in a
 * worker thread (FeedIndex.build). With `options.droppedSince`, rows dropped before it are left out.
 */
export async function loadFeedIndex(
  db: Kysely<DB>,
  version: number,
  options?: FeedIndexOptions,
  build?: FeedBuildOptions,
): Promise<FeedIndex> {
  // No count(*) first to size the columns: they grow a chunk at a time (FeedColumnChunks).
  const rows = new FeedColumnChunks();
  let after: string | null = null;
  const since = options?.droppedSince ?? null;
  for (;;) {
    let query = db.selectFrom('feed_domains').select(FEED_COLUMN_NAMES);
    // The retention (FEED_INDEX_RETENTION_DAYS): drops older than it stay in the table only.
    if (since !== null)
      query = query.where((eb) => eb.or([eb('dropped_at', 'is', null), eb('dropped_at', '>=', since)]));
    if (after !== null) query = query.where('domain', '>', after);
    const batch = (await query.orderBy('domain').limit(LOAD_BATCH).execute()) as FeedColumnRow[];
    for (const row of batch) rows.append(row);
    if (batch.length < LOAD_BATCH) break;
    // A synchronous driver (SQLite) resolves in microtasks only: give queued requests their turn.
    await setImmediate();
    build?.signal?.throwIfAborted();
    after = batch[batch.length - 1]!.domain;
  }
  return FeedIndex.build(rows, version, options, build);
}
