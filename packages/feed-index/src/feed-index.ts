import { FEED_SORTS, type FeedSort } from '@repo/contracts/domain-intel';
import { columnBound } from './column-bound.ts';
import {
  buildFeedIndexPartsInWorker,
  type FeedBuildOptions,
  writeFeedIndexSnapshotInWorker,
} from './feed-build-client.ts';
import { bitmapFor, type FeedClusters, type FeedSeed } from './feed-clusters.ts';
import type { FeedColumnChunks, FeedColumnChunksState } from './feed-column-chunks.ts';
import { type FeedColumns, NO_VALUE } from './feed-columns.ts';
import { buildFeedIndexParts, type FeedIndexParts, rankShift } from './feed-index-parts.ts';
import { type FeedIndexSnapshotMeta, mapFeedIndexSnapshot, writeFeedIndexSnapshot } from './feed-index-snapshot.ts';
import {
  type BoundedColumn,
  type FeedBound,
  type FeedBounds,
  type FeedFilters,
  type FeedPage,
  feedBounds,
} from './filters.ts';
import { type RowOrder, rowAt, rowOrderBytes } from './row-order.ts';
import { TimeColumn } from './time-column.ts';

/**
 * A bound's rows are visited through its sort permutation (random reads) instead of scanning
 * the filter's groups (sequential reads) when they are at most this share of the groups' rows.
 */
const SEED_SHARE = 1 / 8;

/** The bounded columns that have a sort: each bound on one is a slice of that sort's permutation. */
const SORTED_BY: Partial<Record<BoundedColumn, { sort: FeedSort; descending: boolean }>> = {
  droppedAt: { sort: 'dropped_at', descending: true },
  da: { sort: 'da', descending: true },
  tf: { sort: 'tf', descending: true },
  altTldCount: { sort: 'alt_tld_count', descending: true },
  firstArchivedAt: { sort: 'age', descending: false },
};

export interface FeedIndexOptions {
  /**
   * How many filters' matches (one bitmap each, size / 8 bytes) to keep for reuse within this
   * feed version; 0 keeps none (benchmarks of the cold path).
   */
  cachedFilters: number;
  /** Overrides SEED_SHARE (tests: 1 starts every filter with a sorted bound from its slice). */
  seedShare?: number;
  /**
   * The index holds only rows dropped at or after this time (epoch ms) or not dropped at all (the
   * retention: older drops were left out of the load); null or absent: every row.
   */
  droppedSince?: number | null;
}

interface Marked {
  bits: Uint32Array;
  count: number;
  firstWord: number;
  endWord: number;
}

/**
 * The whole feed in memory, answering a page and its exact total in a few passes over typed
 * arrays. The feed only changes when the pipeline runs, so FeedService builds one after each
 * change (FEED_INDEX=memory).
 *
 * - Rows are FeedClusters: grouped by (status, TLD), each group by DA, so a filter reads only
 *   its groups' rows (and `min_da` only the top of each), one column at a time, into a bitmap
 *   of matches; the total is its popcount.
 * - Each sort has a precomputed permutation (positions in `ORDER BY <sort>, domain` order) and
 *   each position's coarse rank in it (its rank's bucket of 2^rankShift ranks, 256 buckets), 4
 *   bytes a row per sort below 2^24 rows (the permutation as 16 + 8 bits: row-order.ts). A page at offset `o` of
 *   `total` matches out of `n` rows is either a walk along the permutation testing the bitmap,
 *   which stops after about (o + limit) · n / total entries (broad filters), or, when that would
 *   be longer than the matches themselves (narrow filters), the matches counted per bucket and
 *   the permutation walked only within the buckets that hold the page: work ∝ min((o + limit) ·
 *   n / total, total + limit · 2^rankShift) + n / 32 (at most 256 buckets), never a sort at
 *   query time.
 */
export class FeedIndex {
  readonly #parts: FeedIndexParts;
  readonly #clusters: FeedClusters;
  readonly #orders: Record<FeedSort, RowOrder>;
  readonly #coarseRanks: Record<FeedSort, Uint8Array>;
  readonly #rankShift: number;
  readonly #firstRanks: Record<FeedSort, Uint32Array>;
  /** Matches of the current query, by position (reused: queries are synchronous). */
  readonly #matches: Uint32Array;
  /** Matches of the current query per bucket of ranks in the page's sort (#byRank). */
  readonly #bucketCounts: Uint32Array;
  /**
   * Matches of recent filters, least recently used first. Exact for as long as the index
   * lives: the index is of one feed version, and the only bound that moves with the clock
   * (min_years) is keyed by the rows it selects (#settled).
   */
  readonly #cached = new Map<string, Marked>();
  /** Bitmaps of dropped cache entries, reused rather than left to the garbage collector (1.2 MB each at 10 M rows). */
  readonly #spare: Uint32Array[] = [];

  private constructor(
    parts: FeedIndexParts,
    /** The feed version (FeedService) it was built from. */
    readonly version: number,
    private readonly options: FeedIndexOptions = { cachedFilters: 0 },
  ) {
    this.#parts = parts;
    this.#clusters = parts.clusters;
    this.#orders = parts.orders;
    this.#coarseRanks = parts.coarseRanks;
    this.#firstRanks = parts.firstRanks;
    const size = parts.clusters.columns.size;
    this.#rankShift = rankShift(size);
    this.#matches = bitmapFor(size);
    this.#bucketCounts = new Uint32Array((Math.max(0, size - 1) >>> this.#rankShift) + 1);
  }

  /**
   * An index of rows already in memory (columns, or chunks of them, consumed), in the database's
   * domain order, built on this thread (benchmarks, tests, small row sets).
   */
  static fromColumns(
    columns: FeedColumns | FeedColumnChunksState,
    version: number,
    options?: FeedIndexOptions,
  ): FeedIndex {
    return new FeedIndex(buildFeedIndexParts(columns), version, options);
  }

  /**
   * An index of `rows`, built in a worker thread: this thread only hands the rows' columns over
   * and wraps the parts it gets back. `rows` is unusable afterwards.
   */
  static async build(
    rows: FeedColumnChunks,
    version: number,
    options?: FeedIndexOptions,
    build?: FeedBuildOptions,
  ): Promise<FeedIndex> {
    return new FeedIndex(await buildFeedIndexPartsInWorker(rows, build), version, options);
  }

  /**
   * An index of `rows` built in a worker thread that writes it as the snapshot `file` (recording
   * `settings`), then mapped from there (fromSnapshot): the built parts never reach this thread, so
   * the process holds the one mapped copy only. `rows` is unusable afterwards.
   */
  static async buildSnapshot(
    rows: FeedColumnChunks,
    file: string,
    version: number,
    options: FeedIndexOptions = { cachedFilters: 0 },
    settings: FeedIndexSnapshotMeta['settings'] = {},
    build?: FeedBuildOptions,
  ): Promise<FeedIndex> {
    const meta = { version, droppedSince: options.droppedSince ?? null, settings };
    await writeFeedIndexSnapshotInWorker(rows, { file, meta }, build);
    return FeedIndex.fromSnapshot(file, options).index;
  }

  /**
   * The index held in the snapshot file at `file` (writeSnapshot), its parts mapped read-only and
   * shared, not copied: processes mapping one file hold one copy of it per host, and it answers at
   * once (no load, no build). Its feed version and what it covers are the snapshot's. Throws a
   * TypedArrayFileError for a file that is not a whole snapshot (torn, foreign, another format).
   */
  static fromSnapshot(
    file: string,
    options: Omit<FeedIndexOptions, 'droppedSince'> = { cachedFilters: 0 },
  ): { index: FeedIndex; meta: FeedIndexSnapshotMeta } {
    const { parts, meta } = mapFeedIndexSnapshot(file);
    return { index: new FeedIndex(parts, meta.version, { ...options, droppedSince: meta.droppedSince }), meta };
  }

  /**
   * Writes this index as a snapshot file (feed-index-snapshot.ts), atomically; `settings` are
   * recorded with its version and what it covers. The queries never write the parts (their scratch
   * bitmaps are this object's own), which is what lets a snapshot be mapped read-only.
   */
  writeSnapshot(file: string, settings: FeedIndexSnapshotMeta['settings'] = {}): Promise<void> {
    return writeFeedIndexSnapshot(file, this.#parts, {
      version: this.version,
      droppedSince: this.options.droppedSince ?? null,
      settings,
    });
  }

  /** The rows, grouped (FeedClusters). */
  get columns(): FeedColumns {
    return this.#clusters.columns;
  }

  /** Bytes held: columns, domain text, grouping and column bitmaps, permutations and coarse ranks, the query buffers. */
  get bytes(): number {
    const perSort = FEED_SORTS.reduce(
      (sum, sort) => sum + rowOrderBytes(this.#orders[sort]) + this.#coarseRanks[sort].byteLength,
      0,
    );
    return (
      this.columns.bytes +
      this.#clusters.extraBytes +
      perSort +
      this.#matches.byteLength +
      this.#bucketCounts.byteLength
    );
  }

  /**
   * Whether the index holds every row the filters can match: always without a retention; with one,
   * only when `dropped_after` is at or after its start (older drops are not here: the SQL path answers).
   */
  covers(filters: FeedFilters): boolean {
    const since = this.options.droppedSince ?? null;
    return since === null || (filters.droppedAfter !== null && filters.droppedAfter >= since);
  }

  /** Rows matching the filters. */
  count(filters: FeedFilters, now: number): number {
    return this.#mark(feedBounds(filters, now)).count;
  }

  /**
   * The domains of one page in the SQL path's order, and the exact total of matches. `path`
   * forces one way of finding the page (tests check both against SQL); by default the cheaper.
   */
  page(
    filters: FeedFilters,
    page: FeedPage,
    now: number,
    path?: 'walk' | 'by-rank',
  ): { domains: string[]; total: number } {
    const size = this.columns.size;
    const bounds = feedBounds(filters, now);
    const grouped = path === undefined && settledByGroups(bounds) ? this.#pageOfGroups(bounds, page) : null;
    if (grouped) return grouped;
    const marked = this.#mark(bounds);
    const total = marked.count;
    const wanted = Math.min(page.offset + page.limit, total);
    if (wanted <= page.offset) return { domains: [], total };
    // The walk's length assumes the matches are spread evenly along the sort; when they are not
    // (e.g. tld=com by alt-TLD count, where .com rows have few), it gives up at the cost of the
    // ranks' buckets and they answer instead, so a page costs at most about twice the cheaper way.
    const from = this.#firstRank(page.sort, bounds);
    const byRankCost = total + size / 32;
    const walkLength = (wanted * (size - from)) / total;
    const walked =
      path === 'by-rank' || (path === undefined && walkLength > byRankCost)
        ? null
        : walk(this.#orders[page.sort], marked.bits, from, page.offset, wanted, path === 'walk' ? size : byRankCost);
    const positions = walked ?? this.#byRank(page.sort, marked, page.offset, wanted);
    return { domains: positions.map((k) => this.columns.domain(k)), total };
  }

  /** The first rank along `sort` where a row of the filter's statuses lies: no match comes before it. */
  #firstRank(sort: FeedSort, bounds: FeedBounds): number {
    const first = this.#firstRanks[sort];
    let from = this.columns.size;
    for (const status of bounds.statuses) from = Math.min(from, first[status]!);
    return from;
  }

  /** Drops the reused matches (benchmarks measure the cold path with it). */
  forgetMatches(): void {
    for (const { bits } of this.#cached.values()) this.#spare.push(bits);
    this.#cached.clear();
  }

  /**
   * A page of a filter its (status, TLD) groups settle alone (DA cuts each group: feed-clusters.ts
   * ranges), e.g. the first page a client polls: the total is the groups' rows, and the page a walk
   * along the sort's permutation testing positions against the groups' ranges, with no bitmap to
   * mark (or cache key to build). Null when the walk would cost more than marking (few matches
   * along the sort, a deep page): the marked path answers.
   */
  #pageOfGroups(bounds: FeedBounds, page: FeedPage): { domains: string[]; total: number } | null {
    const ranges = this.#clusters.ranges(bounds);
    let total = 0;
    for (let r = 0; r < ranges.length; r += 2) total += ranges[r + 1]! - ranges[r]!;
    const wanted = Math.min(page.offset + page.limit, total);
    if (wanted <= page.offset) return { domains: [], total };
    const size = this.columns.size;
    const from = this.#firstRank(page.sort, bounds);
    // Marking costs about a word per 32 rows of the groups, the rank marks about a bit per match.
    const budget = total + size / 32;
    if ((wanted * (size - from)) / total > budget) return null;
    const positions = walkRanges(this.#orders[page.sort], ranges, from, page.offset, wanted, budget);
    return positions && { domains: positions.map((k) => this.columns.domain(k)), total };
  }

  /** The filter's matches: from the cache, or marked now (and cached). */
  #mark(bounds: FeedBounds): Marked {
    if (this.options.cachedFilters === 0) return { bits: this.#matches, ...this.#markNow(bounds, this.#matches) };
    const key = this.#cacheKey(bounds);
    const cached = this.#cached.get(key);
    if (cached) {
      this.#cached.delete(key);
      this.#cached.set(key, cached);
      return cached;
    }
    if (this.#cached.size >= this.options.cachedFilters) {
      const [oldest, dropped] = this.#cached.entries().next().value!;
      this.#cached.delete(oldest);
      this.#spare.push(dropped.bits);
    }
    const bits = this.#spare.pop() ?? bitmapFor(this.columns.size);
    const marked = { bits, ...this.#markNow(bounds, bits) };
    this.#cached.set(key, marked);
    return marked;
  }

  /**
   * Marks the matches, starting from the most selective sorted bound's slice of its permutation
   * when that is much smaller than the rows of the filter's groups (e.g. one day of drops).
   */
  #markNow(bounds: FeedBounds, bits: Uint32Array): Omit<Marked, 'bits'> {
    const ranges = this.#clusters.ranges(bounds);
    let groupRows = 0;
    for (let r = 0; r < ranges.length; r += 2) groupRows += ranges[r + 1]! - ranges[r]!;
    let seed: FeedSeed | undefined;
    for (const bound of bounds.bounds) {
      const slice = this.#slice(bound);
      if (
        slice &&
        slice.to - slice.from <= groupRows * (this.options.seedShare ?? SEED_SHARE) &&
        (!seed || slice.to - slice.from < seed.to - seed.from)
      ) {
        seed = slice;
      }
    }
    return this.#clusters.mark(bounds, bits, seed, ranges);
  }

  /** The rows within a bound as a slice of its column's sort permutation, for columns that have one. */
  #slice(bound: FeedBound): FeedSeed | undefined {
    const sorted = SORTED_BY[bound.column];
    if (!sorted) return undefined;
    const order = this.#orders[sorted.sort];
    const column = this.columns[bound.column];
    const { values, min, max } = columnBound(this.columns, bound);
    // Unknown values come last in every sort: a time's (a code above the column's top) is not below its
    // known ones, so the searches stop where they start.
    const known =
      column instanceof TimeColumn ? (value: number) => value <= column.top : (value: number) => value !== NO_VALUE;
    /** The first k where `before(value at k)` is false (it is true for a prefix of the known values). */
    const first = (before: (value: number) => boolean) => {
      let low = 0;
      let high = order.low.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const value = values[rowAt(order, middle)]!;
        if (known(value) && before(value)) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const from = sorted.descending ? first((v) => v > max) : first((v) => v < min);
    const to = sorted.descending ? first((v) => v >= min) : first((v) => v <= max);
    return { bound, order, from, to: Math.max(from, to) };
  }

  /**
   * The same text for the same matches: statuses, TLDs, the needle and each bound (min_years's
   * settled, see #settled). Built by hand: JSON.stringify of the bounds cost a microsecond a call.
   * TLDs and needles hold no `|`, `,` or `:`.
   */
  #cacheKey(bounds: FeedBounds): string {
    let key = `${bounds.statuses.join(',')}|${bounds.tlds === null ? '*' : bounds.tlds.join(',')}|${bounds.contains?.toString('latin1') ?? ''}`;
    for (const bound of bounds.bounds) {
      const { min, max } = this.#settled(bound);
      key += `|${bound.column}:${min}:${max}`;
    }
    for (const test of bounds.rowTests) key += `|${test.key}`;
    return key;
  }

  /**
   * The min_years bound (`first_archived_at <= now - n years`) as the latest archive time of a
   * row it selects, so that the same rows give the same cache key while the clock moves.
   */
  #settled(bound: FeedBound): FeedBound {
    if (bound.column !== 'firstArchivedAt' || bound.min !== Number.NEGATIVE_INFINITY) return bound;
    const order = this.#orders.age;
    const archived = this.columns.firstArchivedAt;
    const { values, max } = columnBound(this.columns, bound);
    // The age order is ascending with unknown (a code above every bound's) last: find the last row at or before the bound.
    let low = 0;
    let high = order.low.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (values[rowAt(order, middle)]! <= max) low = middle + 1;
      else high = middle;
    }
    return { ...bound, max: low === 0 ? Number.NEGATIVE_INFINITY : archived.time(rowAt(order, low - 1)) };
  }

  /**
   * Matches `skip` … `wanted` in the sort's order: the matches counted per bucket of ranks, then
   * the permutation walked, testing the matches, only within the buckets that hold the page.
   */
  #byRank(sort: FeedSort, { bits: matches, firstWord, endWord }: Marked, skip: number, wanted: number): number[] {
    const counts = this.#bucketCounts;
    const coarse = this.#coarseRanks[sort];
    counts.fill(0);
    for (let w = firstWord; w < endWord; w++) {
      for (let bits = matches[w]! | 0; bits !== 0; bits &= bits - 1) {
        counts[coarse[(w << 5) | (31 - Math.clz32(bits & -bits))]!]!++;
      }
    }
    // The sort's positions decoded inline (row-order.ts), so the hot loop holds no call.
    const { low, high } = this.#orders[sort];
    const shift = this.#rankShift;
    const positions: number[] = [];
    let seen = 0;
    for (let bucket = 0; bucket < counts.length && seen < wanted; bucket++) {
      const inBucket = counts[bucket]!;
      if (seen + inBucket <= skip) {
        seen += inBucket;
        continue;
      }
      // The bucket's matches are all within its 2^shift ranks: the walk stops at its last one.
      for (let k = bucket << shift, left = inBucket; left > 0 && seen < wanted; k++) {
        const i = low[k]! | (high[k]! << 16);
        if ((matches[i >>> 5]! & (1 << (i & 31))) === 0) continue;
        left--;
        if (seen++ >= skip) positions.push(i);
      }
    }
    return positions;
  }
}

/** Whether the filter is settled by its (status, TLD) groups alone, DA included (FeedClusters.ranges). */
const settledByGroups = (bounds: FeedBounds) =>
  bounds.contains === null && bounds.rowTests.length === 0 && bounds.bounds.every((bound) => bound.column === 'da');

/**
 * Positions `skip` … `wanted` along `order` from rank `from` (none before it can match) that lie
 * in `ranges` (sorted, disjoint [start, end) pairs); null after `budget` entries without the last
 * one wanted.
 */
function walkRanges(
  { low: orderLow, high: orderHigh }: RowOrder,
  ranges: number[],
  from: number,
  skip: number,
  wanted: number,
  budget: number,
): number[] | null {
  const positions: number[] = [];
  const last = ranges.length - 2;
  let seen = 0;
  const size = orderLow.length;
  const stop = Math.min(size, from + Math.ceil(budget));
  let k = from;
  for (; k < stop && seen < wanted; k++) {
    const i = orderLow[k]! | (orderHigh[k]! << 16);
    // The last range starting at or before i (binary search over the pairs' starts).
    let low = 0;
    let high = last;
    while (low < high) {
      const middle = ((low + high + 2) >>> 2) << 1;
      if (ranges[middle]! <= i) low = middle;
      else high = middle - 2;
    }
    if (i < ranges[low]! || i >= ranges[low + 1]!) continue;
    if (seen++ >= skip) positions.push(i);
  }
  return seen < wanted && k < size ? null : positions;
}

/**
 * Matches `skip` … `wanted` along `order` from rank `from` (none before it can match): the walk
 * stops at the last one wanted, or (null) after `budget` entries without it.
 */
function walk(
  { low: orderLow, high: orderHigh }: RowOrder,
  matches: Uint32Array,
  from: number,
  skip: number,
  wanted: number,
  budget: number,
): number[] | null {
  const positions: number[] = [];
  let seen = 0;
  const size = orderLow.length;
  const stop = Math.min(size, from + Math.ceil(budget));
  let k = from;
  for (; k < stop && seen < wanted; k++) {
    const i = orderLow[k]! | (orderHigh[k]! << 16);
    if ((matches[i >>> 5]! & (1 << (i & 31))) === 0) continue;
    if (seen++ >= skip) positions.push(i);
  }
  return seen < wanted && k < size ? null : positions;
}
