import { FEED_SORTS, type FeedSort } from '@repo/contracts/domain-intel';
import { FeedClusters, type FeedClustersState } from './feed-clusters.ts';
import type { FeedColumnChunksState } from './feed-column-chunks.ts';
import { type FeedColumns, NO_VALUE } from './feed-columns.ts';
import { sortedBy } from './radix-sort.ts';
import { type RowOrder, rowOrderOf } from './row-order.ts';
import { sharedArray } from './shared-arrays.ts';

/**
 * What a FeedIndex is made of: the grouped rows and each sort's permutation with each row's
 * coarse rank in it.
 * All of it is built by buildFeedIndexParts from the columns alone, in the build worker
 * (feed-build-worker.ts); a new query structure joins here, built there, and crosses back as
 * plain typed arrays allocated on shared memory (shared-arrays.ts; or, for a class, through its
 * state in FeedIndexPartsState).
 */
export interface FeedIndexParts {
  clusters: FeedClusters;
  /** Per sort, the positions in `ORDER BY <sort>, domain` order (3 bytes a row below 2^24 rows: row-order.ts). */
  orders: Record<FeedSort, RowOrder>;
  /**
   * Per sort, each position's rank in it shifted right by rankShift(size) (one of at most 256
   * buckets along the sort): where a narrow filter's page lies is found by counting its matches
   * per bucket, then walking the permutation within the buckets that hold the page. One byte a
   * row per sort where the exact inverse permutation took four. Why 256 buckets and not 65,536
   * (two bytes): the page's buckets are walked whole, 2^16 positions at 10 M rows instead of 256,
   * which measured +19 % on re-paging a cached filter (0.17 → 0.20 ms) and nothing on the cold
   * queries, for 5 bytes a row of the five sorts (issue 35).
   */
  coarseRanks: Record<FeedSort, Uint8Array>;
  /**
   * Per sort, by status code (STATUS_CODES), the first rank of a row with that status (the row
   * count when none has it): a page walk starts there, as nothing before it can match. New
   * registrations have no drop time, DA, TF, alt-TLD count or archive date, so they all sort
   * last: without it, a page of them walked past every drop first.
   */
  firstRanks: Record<FeedSort, Uint32Array>;
}

/**
 * FeedIndexParts as plain data: what the build worker sends back. Every array that grows with the
 * rows is on shared memory (shared-arrays.ts), so only a few small ones are transferred.
 */
export type FeedIndexPartsState = Omit<FeedIndexParts, 'clusters'> & { clusters: FeedClustersState };

export function feedIndexPartsState(parts: FeedIndexParts): FeedIndexPartsState {
  return { ...parts, clusters: parts.clusters.state() };
}

export function feedIndexPartsFromState(state: FeedIndexPartsState): FeedIndexParts {
  return { ...state, clusters: new FeedClusters(state.clusters) };
}

/**
 * The buffers of every typed array in a plain value (objects, arrays), once each: the transfer
 * list that hands them to another thread without copying. Shared buffers need no transfer.
 */
export function transferablesOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) transferablesOf(item, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) transferablesOf(item, found);
  }
  return [...found];
}

/**
 * Builds every part of the index from the rows (seconds of CPU at 10 M rows: run it in the build
 * worker, not on the API's thread): columns, or the chunks of columns a load filled, read in place
 * and consumed (FeedClusters). Reads nothing else.
 */
export function buildFeedIndexParts(rows: FeedColumns | FeedColumnChunksState): FeedIndexParts {
  const { clusters, rowOf } = FeedClusters.group(rows);
  const size = clusters.size;
  const grouped = clusters.columns;
  // Positions in domain order (the database's ORDER BY domain), which every sort breaks ties by.
  const byDomain = new Uint32Array(size);
  for (let k = 0; k < size; k++) byDomain[rowOf[k]!] = k;
  const keys: Record<FeedSort, () => Float64Array> = {
    // A time column's codes order its rows as their times do (time-column.ts).
    dropped_at: () => descendingKey(grouped.droppedAt.codes, (v) => grouped.droppedAt.missing(v)),
    da: () => descendingKey(grouped.da, (v) => v === NO_VALUE),
    tf: () => descendingKey(grouped.tf, (v) => v === NO_VALUE),
    alt_tld_count: () => descendingKey(grouped.altTldCount, (v) => v === NO_VALUE),
    age: () => ascendingKey(grouped.firstArchivedAt.codes, (v) => grouped.firstArchivedAt.missing(v)),
  };
  const orders = {} as Record<FeedSort, RowOrder>;
  const coarseRanks = {} as Record<FeedSort, Uint8Array>;
  const firstRanks = {} as Record<FeedSort, Uint32Array>;
  const shift = rankShift(size);
  for (const sort of FEED_SORTS) {
    const order = sortedBy(keys[sort](), byDomain);
    const coarse = sharedArray(Uint8Array, size);
    const first = sharedArray(Uint32Array, 256).fill(size);
    for (let k = 0; k < size; k++) {
      const i = order[k]!;
      coarse[i] = k >>> shift;
      const status = grouped.status[i]!;
      if (first[status] === size) first[status] = k;
    }
    orders[sort] = rowOrderOf(order);
    coarseRanks[sort] = coarse;
    firstRanks[sort] = first;
  }
  return { clusters, orders, coarseRanks, firstRanks };
}

/** The fewest bits a rank is shifted right by for every rank of `size` rows to fit in 8 bits. */
export function rankShift(size: number): number {
  let shift = 0;
  while (Math.max(0, size - 1) >>> shift > 0xff) shift++;
  return shift;
}

type NumberColumn = { readonly length: number; readonly [i: number]: number };

/** Sort keys as non-negative integers, largest value first, missing values last. */
function descendingKey(column: NumberColumn, missing: (value: number) => boolean): Float64Array {
  let max = 0;
  for (let i = 0; i < column.length; i++) if (!missing(column[i]!) && column[i]! > max) max = column[i]!;
  const keys = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) keys[i] = missing(column[i]!) ? max + 1 : max - column[i]!;
  return keys;
}

/** Sort keys as non-negative integers, smallest value first, missing values last. */
function ascendingKey(column: NumberColumn, missing: (value: number) => boolean): Float64Array {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (let i = 0; i < column.length; i++) {
    if (missing(column[i]!)) continue;
    min = Math.min(min, column[i]!);
    max = Math.max(max, column[i]!);
  }
  if (min === Number.POSITIVE_INFINITY) min = 0;
  const keys = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) keys[i] = missing(column[i]!) ? max - min + 1 : column[i]! - min;
  return keys;
}
