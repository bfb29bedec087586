import { setImmediate } from 'node:timers/promises';
import {
  FEED_COLUMN_NAMES,
  type FeedBuildOptions,
  FeedColumnChunks,
  type FeedColumnRow,
  FeedIndex,
  type FeedIndexOptions,
  type FeedIndexSnapshotMeta,
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
 * worker thread (FeedIndex.build; with `snapshot`, FeedIndex.buildSnapshot: written there by the
 * worker and mapped). With `options.droppedSince`, rows dropped before it are left out.
 */
export async function loadFeedIndex(
  db: Kysely<DB>,
  version: number,
  options?: FeedIndexOptions,
  build?: FeedBuildOptions,
  ceiling?: FeedIndexCeiling,
  snapshot?: FeedIndexSnapshotTarget,
): Promise<FeedIndex> {
  // No count(*) first to size the columns: they grow a chunk at a time (FeedColumnChunks).
  const rows = new FeedColumnChunks();
  let after: string | null = null;
  const ceilingSince = ceiling ? await oldestDayThatFits(db, ceiling.maxRows) : null;
  if (ceilingSince !== null && ceilingSince > (options?.droppedSince ?? Number.NEGATIVE_INFINITY)) {
    ceiling?.onCut(ceilingSince);
  }
  const since = maxOrNull(options?.droppedSince ?? null, ceilingSince);
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
  const indexOptions = { cachedFilters: 0, ...options, droppedSince: since };
  return snapshot
    ? FeedIndex.buildSnapshot(rows, snapshot.file, version, indexOptions, snapshot.settings, build)
    : FeedIndex.build(rows, version, indexOptions, build);
}

/** Where the build writes the index as a snapshot (the host's FEED_INDEX_DIR), to be mapped from there. */
export interface FeedIndexSnapshotTarget {
  file: string;
  settings: FeedIndexSnapshotMeta['settings'];
}

/**
 * The bytes a row is taken to cost before an index of MEASURED_ROWS rows or more was built here:
 * above every figure measured (`bench/domains-feed-index`: 132 before 28 Nov, ~114 since), so a
 * first build stays under FEED_INDEX_MAX_MB.
 */
export const ASSUMED_BYTES_PER_ROW = 128;

/** Below this many rows an index's fixed parts (~1 MB: the trigram tables, the rank buckets' counts) distort its bytes per row. */
const MEASURED_ROWS = 100_000;

/** An index's bytes per row, or null when it holds too few rows for that to be its cost per row. */
export const measuredBytesPerRow = (index: FeedIndex): number | null =>
  index.columns.size >= MEASURED_ROWS ? index.bytes / index.columns.size : null;

/**
 * The one row ceiling of FEED_INDEX_MAX_ROWS and FEED_INDEX_MAX_MB (the lower; 0: that one is off),
 * the megabytes (MiB) as rows at `bytesPerRow` (the last build's; null: ASSUMED_BYTES_PER_ROW).
 * Null when neither is set.
 */
export function indexRowCeiling(maxRows: number, maxMb: number, bytesPerRow: number | null): number | null {
  const byBytes = maxMb > 0 ? Math.floor((maxMb * 1_048_576) / (bytesPerRow ?? ASSUMED_BYTES_PER_ROW)) : null;
  if (maxRows > 0 && byBytes !== null) return Math.min(maxRows, byBytes);
  return maxRows > 0 ? maxRows : byBytes;
}

/** FEED_INDEX_MAX_ROWS / FEED_INDEX_MAX_MB: the most rows the index holds, and whom to tell when drops were left out for it. */
export interface FeedIndexCeiling {
  maxRows: number;
  onCut(droppedSince: number): void;
}

const DAY_MS = 86_400_000;

/**
 * The start of the oldest UTC day whose drops (with every newer one and every row not dropped,
 * which always stay) fit in `maxRows`; null when every row fits. Oldest days leave first, whole.
 */
async function oldestDayThatFits(db: Kysely<DB>, maxRows: number): Promise<number | null> {
  const notDropped = await db
    .selectFrom('feed_domains')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .where('dropped_at', 'is', null)
    .executeTakeFirstOrThrow();
  const room = Math.max(0, maxRows - Number(notDropped.rows));
  // The newest drop that does not fit: it and the rest of its day leave.
  const first = await db
    .selectFrom('feed_domains')
    .select('dropped_at')
    .where('dropped_at', 'is not', null)
    .orderBy('dropped_at', 'desc')
    .offset(room)
    .limit(1)
    .executeTakeFirst();
  if (!first) return null;
  return (Math.floor(Number(first.dropped_at) / DAY_MS) + 1) * DAY_MS;
}

const maxOrNull = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
