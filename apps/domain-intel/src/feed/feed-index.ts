import type { FeedSort } from '@repo/contracts/domain-intel';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { FEED_COLUMN_NAMES, type FeedColumnRow, FeedColumns, NO_VALUE, toColumnRow } from './feed-columns.ts';
import { compileFeedMatcher, type FeedRowMatcher } from './feed-matcher.ts';
import type { FeedFilters, FeedPage } from './filters.ts';

const LOAD_BATCH = 50_000;
/** Below this many matches a page is cut from the sorted matches; above, the sort order is walked. */
const COLLECT_UP_TO = 50_000;

/**
 * The whole feed in memory as FeedColumns plus one permutation per sort (row positions in
 * `ORDER BY <sort> , domain` order, 4 bytes a row each). The feed only changes when the
 * pipeline runs, so FeedService builds one after each change and answers pages and totals
 * from it: a total is one sequential scan of typed arrays, a page a walk along the sort's
 * permutation that stops after offset + limit matches (or, for few matches, a sort of those).
 */
export class FeedIndex {
  readonly #orders: Record<FeedSort, Uint32Array>;
  /** The same orders as comparisons of two row positions (for sorting a few matches). */
  readonly #compare: Record<FeedSort, (a: number, b: number) => number>;

  private constructor(
    readonly columns: FeedColumns,
    /** The feed version (FeedService) it was built from. */
    readonly version: number,
  ) {
    this.#orders = {
      dropped_at: sortedBy(
        columns.size,
        descendingKey(columns.droppedAt, (v) => Number.isNaN(v)),
      ),
      da: sortedBy(
        columns.size,
        descendingKey(columns.da, (v) => v === NO_VALUE),
      ),
      tf: sortedBy(
        columns.size,
        descendingKey(columns.tf, (v) => v === NO_VALUE),
      ),
      alt_tld_count: sortedBy(
        columns.size,
        descendingKey(columns.altTldCount, (v) => v === NO_VALUE),
      ),
      age: sortedBy(
        columns.size,
        ascendingKey(columns.firstArchivedAt, (v) => Number.isNaN(v)),
      ),
    };
    const { droppedAt, da, tf, altTldCount, firstArchivedAt } = columns;
    this.#compare = {
      dropped_at: (a, b) => descendingNullsLast(droppedAt[a]!, droppedAt[b]!, Number.NaN) || a - b,
      da: (a, b) => descendingNullsLast(da[a]!, da[b]!, NO_VALUE) || a - b,
      tf: (a, b) => descendingNullsLast(tf[a]!, tf[b]!, NO_VALUE) || a - b,
      alt_tld_count: (a, b) => descendingNullsLast(altTldCount[a]!, altTldCount[b]!, NO_VALUE) || a - b,
      age: (a, b) => ascendingNullsLast(firstArchivedAt[a]!, firstArchivedAt[b]!) || a - b,
    };
  }

  /** Reads every feed row in the database's domain order (keyset batches, no long transaction). */
  static async load(db: Kysely<DB>, version: number): Promise<FeedIndex> {
    const rows: FeedColumnRow[][] = [];
    let size = 0;
    let after: string | null = null;
    for (;;) {
      let query = db.selectFrom('feed_domains').select(FEED_COLUMN_NAMES);
      if (after !== null) query = query.where('domain', '>', after);
      const batch = (await query.orderBy('domain').limit(LOAD_BATCH).execute()) as FeedColumnRow[];
      if (batch.length > 0) rows.push(batch);
      size += batch.length;
      if (batch.length < LOAD_BATCH) break;
      after = batch[batch.length - 1]!.domain;
    }
    const columns = new FeedColumns(size);
    let i = 0;
    for (const batch of rows.splice(0)) for (const row of batch) columns.set(i++, toColumnRow(row));
    return new FeedIndex(columns, version);
  }

  /** Rows matching the filters (one scan). */
  count(filters: FeedFilters, now: number): number {
    return countMatches(this.columns.size, compileFeedMatcher(this.columns, filters, now));
  }

  /**
   * The domains of one page in the SQL path's order. `total` is the count of matches when the
   * caller has it (from a cache), else it is counted here.
   */
  page(filters: FeedFilters, page: FeedPage, now: number, knownTotal?: number): { domains: string[]; total: number } {
    const matches = compileFeedMatcher(this.columns, filters, now);
    const size = this.columns.size;
    // Without a known total, one scan counts the matches and keeps the first few of them.
    const scanned = knownTotal === undefined ? scan(size, matches) : null;
    const total = scanned ? scanned.total : knownTotal!;
    const wanted = Math.min(page.offset + page.limit, total);
    if (wanted <= page.offset) return { domains: [], total };
    let rows: ArrayLike<number>;
    if (total <= COLLECT_UP_TO && (wanted * size) / total > size / 4) {
      // Few, scattered matches (walking the sort order would visit most rows): sort just those.
      let found = scanned?.found;
      if (!found) {
        found = new Uint32Array(total);
        let n = 0;
        for (let i = 0; i < size && n < total; i++) if (matches(i)) found[n++] = i;
      }
      found.sort(this.#compare[page.sort]);
      rows = found.subarray(page.offset, wanted);
    } else {
      rows = walk(this.#orders[page.sort], matches, page.offset, wanted - page.offset);
    }
    return { domains: Array.from(rows, (i) => this.columns.domain(i)), total };
  }
}

const isMissing = (value: number, missing: number) => (Number.isNaN(missing) ? Number.isNaN(value) : value === missing);

/** Larger first, `missing` (NULL) last; 0 when equal. */
function descendingNullsLast(x: number, y: number, missing: number): number {
  const xMissing = isMissing(x, missing);
  const yMissing = isMissing(y, missing);
  if (xMissing || yMissing) return Number(xMissing) - Number(yMissing);
  return y - x;
}

/** Smaller first, NaN (NULL) last; 0 when equal. */
function ascendingNullsLast(x: number, y: number): number {
  const xMissing = Number.isNaN(x);
  const yMissing = Number.isNaN(y);
  if (xMissing || yMissing) return Number(xMissing) - Number(yMissing);
  return x - y;
}

/** Counts the matches; keeps them all when there are at most COLLECT_UP_TO. */
function scan(size: number, matches: FeedRowMatcher): { total: number; found: Uint32Array | null } {
  const kept = new Uint32Array(COLLECT_UP_TO);
  let total = 0;
  for (let i = 0; i < size; i++) {
    if (!matches(i)) continue;
    if (total < COLLECT_UP_TO) kept[total] = i;
    total++;
  }
  return { total, found: total <= COLLECT_UP_TO ? kept.subarray(0, total) : null };
}

function countMatches(size: number, matches: FeedRowMatcher): number {
  let total = 0;
  for (let i = 0; i < size; i++) if (matches(i)) total++;
  return total;
}

/** Rows `skip` … `skip + take` of the matches, in `order`. */
function walk(order: Uint32Array, matches: FeedRowMatcher, skip: number, take: number): number[] {
  const rows: number[] = [];
  let skipped = 0;
  for (let k = 0; k < order.length && rows.length < take; k++) {
    const i = order[k]!;
    if (!matches(i)) continue;
    if (skipped < skip) skipped++;
    else rows.push(i);
  }
  return rows;
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

/**
 * Row positions ordered by `keys` (integers 0 … 2^53), ties in row order (= domain order): a
 * stable least-significant-digit radix sort, 16 bits a pass, as many passes as the largest key needs.
 */
function sortedBy(size: number, keys: Float64Array): Uint32Array {
  let max = 0;
  for (let i = 0; i < size; i++) if (keys[i]! > max) max = keys[i]!;
  let order = new Uint32Array(size);
  for (let i = 0; i < size; i++) order[i] = i;
  let spare = new Uint32Array(size);
  const counts = new Uint32Array(65_537);
  for (let shift = 1; shift <= max; shift *= 65_536) {
    counts.fill(0);
    for (let k = 0; k < size; k++) counts[(Math.floor(keys[order[k]!]! / shift) % 65_536) + 1]!++;
    for (let d = 1; d <= 65_536; d++) counts[d]! += counts[d - 1]!;
    for (let k = 0; k < size; k++) {
      const i = order[k]!;
      spare[counts[Math.floor(keys[i]! / shift) % 65_536]!++] = i;
    }
    [order, spare] = [spare, order];
  }
  return order;
}
