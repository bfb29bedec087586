import { type ColumnBound, columnBound } from './column-bound.ts';
import { FeedColumnChunksReader, type FeedColumnChunksState } from './feed-column-chunks.ts';
import { FeedColumns, type FeedColumnsState, NO_VALUE } from './feed-columns.ts';
import type { BoundedColumn, FeedBound, FeedBounds } from './filters.ts';
import { FlagColumn } from './flag-column.ts';
import { type LabelGrams, labelGrams, labelGramsBytes, markLabelGrams } from './label-grams.ts';
import { popcount } from './popcount.ts';
import { sortedBy } from './radix-sort.ts';
import type { RowOrder } from './row-order.ts';
import { sharedArray } from './shared-arrays.ts';
import type { TimeColumn } from './time-column.ts';

/** Where the rows of one (status, TLD) group lie: [start, end), DA highest first, unknown last. */
interface Group {
  start: number;
  end: number;
}

/**
 * Rows to start from instead of scanning: positions `order[from … to)`, which are exactly the
 * rows (of any group) within `bound`, e.g. a slice of a sort permutation.
 */
export interface FeedSeed {
  bound: FeedBound;
  order: RowOrder;
  from: number;
  to: number;
}

/** FeedClusters as plain data, for crossing between threads (typed arrays shared or transferred, never copied). */
export interface FeedClustersState {
  columns: FeedColumnsState;
  /** Per group: its key ((status << 16) | TLD code), start and end. */
  groups: Uint32Array;
  sliced: Partial<Record<BoundedColumn, Uint32Array[]>>;
  days: Partial<Record<BoundedColumn, DaySlices>>;
  grams: LabelGrams;
}

/** A bitmap with one bit per row position (bit i of word i >>> 5). */
export const bitmapFor = (size: number) => sharedArray(Uint32Array, (size >>> 5) + 1);

/**
 * FeedColumns laid out for filtering: rows grouped by (status, TLD), each group by DA
 * (highest first, unknown last), ties in the order given. A filter then touches only the
 * groups of its statuses and TLDs, and `min_da` cuts each of them by binary search; the other
 * bounds are applied over those contiguous ranges to a bitmap of matches: `hyphens=false` /
 * `digits=false` as precomputed bitmaps, TF, alt-TLD count and length through bit slices (a few
 * word operations per 32 rows), the times and `contains` by reading their column where bits are
 * left. Counting the matches is a popcount; no row is materialised.
 *
 * Both the in-memory feed index (FeedIndex, the whole feed) and saved-filter matching
 * (RowIndex, a round of new rows) answer filters through this class, from the one meaning of
 * the filters in filters.ts (FEED_FILTERS, feedBounds).
 */
export class FeedClusters {
  /** The rows, grouped. */
  readonly columns: FeedColumns;
  readonly #groups = new Map<number, Group>();
  /**
   * Small whole-number columns bit-sliced: slice j is a bitmap of bit j of (value + 1), unknown
   * being 0, as many slices as the column's largest value needs (up to 7). A bound on one is
   * then that many bitmap words per 32 rows (O'Neil and Quass's range evaluation) instead of 32
   * comparisons.
   */
  readonly #sliced: Partial<Record<BoundedColumn, Uint32Array[]>>;
  /**
   * The time columns bit-sliced by UTC day (daySlices): a bound is the slice evaluation of its
   * days, with the exact time read only for rows on the bound's first and last day.
   */
  readonly #days: Partial<Record<BoundedColumn, DaySlices>>;
  /** Which rows' labels hold which bytes and triples, for `contains` (label-grams.ts). */
  readonly #grams: LabelGrams;
  /** The rows whose label holds the current query's needle (reused: queries are synchronous). */
  #labelBits: Uint32Array | undefined;

  /**
   * Groups the rows of `columns`, or of chunks of columns (FeedColumnChunks' state, read in place
   * and consumed: its list of chunks is emptied once they are gathered, so their memory can go
   * before the rest of the build allocates). Also gives which row each grouped position holds:
   * row k of `clusters.columns` is row rowOf[k] of the rows given (the index needs it only while
   * it builds, saved-filter matching to name its matches; not kept here, 4 bytes a row).
   */
  static group(source: FeedColumns | FeedColumnChunksState): { clusters: FeedClusters; rowOf: Uint32Array } {
    const { state, rowOf } = groupRows(source);
    return { clusters: new FeedClusters(state), rowOf };
  }

  /** Wraps a grouping done elsewhere (FeedClusters.group, possibly on another thread), nothing copied. */
  constructor(state: FeedClustersState) {
    this.columns = new FeedColumns(state.columns);
    for (let g = 0; g < state.groups.length; g += 3) {
      this.#groups.set(state.groups[g]!, { start: state.groups[g + 1]!, end: state.groups[g + 2]! });
    }
    this.#sliced = state.sliced;
    this.#days = state.days;
    this.#grams = state.grams;
  }

  get size(): number {
    return this.columns.size;
  }

  /** This grouping as plain data over its own arrays (transferring their buffers leaves it unusable). */
  state(): FeedClustersState {
    const groups = new Uint32Array(this.#groups.size * 3);
    let g = 0;
    for (const [key, { start, end }] of this.#groups) {
      groups[g++] = key;
      groups[g++] = start;
      groups[g++] = end;
    }
    return {
      columns: this.columns.state(),
      groups,
      sliced: this.#sliced,
      days: this.#days,
      grams: this.#grams,
    };
  }

  /** Bytes held beyond the columns: the bit and day slices, the label grams. */
  get extraBytes(): number {
    const bitmaps = [
      ...Object.values(this.#sliced).flat(),
      ...Object.values(this.#days).flatMap((days) => days.slices),
    ];
    return (
      bitmaps.reduce((sum, bitmap) => sum + bitmap.byteLength, 0) +
      labelGramsBytes(this.#grams) +
      (this.#labelBits?.byteLength ?? 0)
    );
  }

  /**
   * Marks in `bits` (bitmapFor(size), overwritten) the positions of `columns` whose rows
   * satisfy `filter`, and returns how many there are, with the word span the marks lie in.
   * With a `seed` (one selective bound's rows, from FeedIndex) only those rows are visited.
   */
  mark(
    filter: FeedBounds,
    bits: Uint32Array,
    seed?: FeedSeed,
    ranges = this.ranges(filter),
  ): { count: number; firstWord: number; endWord: number } {
    const firstWord = ranges.length > 0 ? ranges[0]! >>> 5 : 0;
    const endWord = ranges.length > 0 ? ((ranges[ranges.length - 1]! - 1) >>> 5) + 1 : 0;
    bits.fill(0);
    // DA is settled by the ranges; `= 0` on a 0/1 column by its bitmap; `contains` by the label
    // grams; bounds on a sliced column by its slices; the others are checked a column at a time.
    const flags: Uint32Array[] = [];
    let checkLabels = filter.contains !== null;
    const tests = filter.rowTests.map((test) => test.compile(this.columns));
    if (filter.contains) {
      this.#labelBits ??= bitmapFor(this.size);
      const answer = markLabelGrams(this.#grams, filter.contains, this.#labelBits);
      if (answer !== 'unindexed') flags.push(this.#labelBits);
      checkLabels = answer !== 'exact';
    }
    const indexedLabels = filter.contains !== null && flags.length > 0;
    const sliced: SlicedBound[] = [];
    const bounds = filter.bounds.filter((bound) => {
      const slices = this.#sliced[bound.column];
      const days = this.#days[bound.column];
      if (bound.column === 'hasHyphen' || bound.column === 'hasDigit') {
        // A 0/1 column is a bitmap of its zeros (FlagColumn): `= 0` (hyphens=false) is one AND per
        // 32 rows; a bound only 1 passes (no filter gives one) is tested row by row.
        const flag = this.columns[bound.column];
        const { zero, one } = FlagColumn.passing(bound.min, bound.max);
        if (zero && !one) flags.push(flag.zeros);
        else if (!zero) tests.push((i) => one && !flag.isZero(i));
      } else if (slices && bound !== seed?.bound) sliced.push(smallSliced(slices, bound));
      else if (days && bound !== seed?.bound) sliced.push(daySliced(days, bound, columnBound(this.columns, bound)));
      else return bound.column !== 'da';
      return false;
    });
    // The scanned bounds in the columns' stored values, once (a time's bound as its codes).
    const scanned = bounds.filter((bound) => bound !== seed?.bound).map((bound) => columnBound(this.columns, bound));
    if (seed) {
      markSeed(seed, ranges, bits);
      for (let r = 0; r < ranges.length; r += 2) {
        for (const flag of flags) keepFlagged(flag, ranges[r]!, ranges[r + 1]!, bits);
        for (const bound of sliced) keepSliced(bound, ranges[r]!, ranges[r + 1]!, bits);
        for (const bound of scanned) keepBound(bound, ranges[r]!, ranges[r + 1]!, bits);
        if (filter.contains && checkLabels) this.#keepLabels(filter.contains, ranges[r]!, ranges[r + 1]!, bits);
        for (const test of tests) keepTested(test, ranges[r]!, ranges[r + 1]!, bits);
      }
    }
    for (let r = 0; r < ranges.length && !seed; r += 2) {
      const start = ranges[r]!;
      const end = ranges[r + 1]!;
      let rest = scanned;
      if (filter.contains && !indexedLabels) this.columns.markLabelsContaining(filter.contains, start, end, bits);
      else if (scanned.length > 0 && flags.length === 0 && sliced.length === 0) {
        markBound(scanned[0]!, start, end, bits);
        rest = scanned.slice(1);
      } else markAll(start, end, bits);
      // The bitmap bounds first (a few word operations per 32 rows), then the scanned ones where bits are left.
      for (const flag of flags) keepFlagged(flag, start, end, bits);
      for (const bound of sliced) keepSliced(bound, start, end, bits);
      for (const bound of rest) keepBound(bound, start, end, bits);
      // A long needle's trigram gave candidates: their bytes are checked where bits are left.
      if (filter.contains && indexedLabels && checkLabels) this.#keepLabels(filter.contains, start, end, bits);
      // Row tests (e.g. ends_with) last, on the rows every cheaper filter left.
      for (const test of tests) keepTested(test, start, end, bits);
    }
    let count = 0;
    for (let w = firstWord; w < endWord; w++) count += popcount(bits[w]!);
    return { count, firstWord, endWord };
  }

  /**
   * The position ranges (start, end pairs, ascending, adjacent ones merged) of the groups a
   * filter selects, each cut to its rows with DA >= min_da.
   */
  ranges(filter: FeedBounds): number[] {
    const tldCodes =
      filter.tlds === null
        ? this.columns.tlds.map((_, code) => code)
        : filter.tlds.map((tld) => this.columns.tldCode(tld)).filter((code) => code >= 0);
    const minDa = filter.bounds.find((bound) => bound.column === 'da')?.min;
    const groups: Group[] = [];
    for (const status of filter.statuses) {
      for (const tld of tldCodes) {
        const group = this.#groups.get((status << 16) | tld);
        if (!group) continue;
        const end = minDa === undefined ? group.end : this.#firstBelow(group, minDa);
        if (end > group.start) groups.push({ start: group.start, end });
      }
    }
    groups.sort((a, b) => a.start - b.start);
    const ranges: number[] = [];
    for (const { start, end } of groups) {
      if (ranges.length > 0 && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = end;
      else ranges.push(start, end);
    }
    return ranges;
  }

  /** The first position of a group (DA descending, unknown last) whose DA is below `min` (>= 0) or unknown. */
  #firstBelow(group: Group, min: number): number {
    const { da } = this.columns;
    let low = group.start;
    let high = group.end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (da[middle]! >= min) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Clears the bits of rows in the words of [start, end) whose label does not contain `needle`. */
  #keepLabels(needle: Uint8Array, start: number, end: number, bits: Uint32Array): void {
    for (let word = start >>> 5; word <= (end - 1) >>> 5; word++) {
      let mask = bits[word]! | 0;
      for (let rest = mask; rest !== 0; rest &= rest - 1) {
        const bit = 31 - Math.clz32(rest & -rest);
        if (!this.columns.labelContains((word << 5) | bit, needle)) mask &= ~(1 << bit);
      }
      bits[word] = mask;
    }
  }
}

/**
 * The grouping FeedClusters wraps, built from the rows: grouped columns, the groups' ranges, the
 * bit slices and day slices, the label grams; and `rowOf`.
 */
function groupRows(source: FeedColumns | FeedColumnChunksState): { state: FeedClustersState; rowOf: Uint32Array } {
  const chunks = source instanceof FeedColumns ? { size: source.size, chunks: [source.state()] } : source;
  const rows = new FeedColumnChunksReader(chunks);
  const sliced: FeedClustersState['sliced'] = {};
  const days: FeedClustersState['days'] = {};
  const size = rows.size;
  const tldCount = Math.max(1, rows.tlds.length);
  // Key: status, then TLD, then DA descending with unknown (NO_VALUE) last; a stable sort keeps the given order within.
  const keys = new Float64Array(size);
  let i = 0;
  rows.chunks.forEach(({ size: chunkSize, status, tld, da }, c) => {
    const tldCodes = rows.tldCodes[c]!;
    for (let j = 0; j < chunkSize; j++, i++) {
      keys[i] = (status[j]! * tldCount + tldCodes[tld[j]!]!) * 128 + (100 - Math.min(100, da[j]!));
    }
  });
  const rowOf = sortedBy(keys);
  const columns = rows.gathered(rowOf);
  chunks.chunks.length = 0;
  // Per group: its key ((status << 16) | TLD code), start and end; rows of a group are contiguous.
  const groupList: number[] = [];
  for (let k = 0; k < size; k++) {
    const key = (columns.status[k]! << 16) | columns.tld[k]!;
    if (groupList.length > 0 && groupList[groupList.length - 3] === key) groupList[groupList.length - 1] = k + 1;
    else groupList.push(key, k, k + 1);
  }
  for (const column of ['tf', 'altTldCount', 'length'] as const) {
    const values = columns[column];
    let fits = true;
    let highest = 0;
    for (let i = 0; i < size && fits; i++) {
      fits = values[i]! >= NO_VALUE && values[i]! < SLICED_TOP;
      highest = Math.max(highest, values[i]! + 1);
    }
    if (!fits) continue; // a value this build did not expect: the column is scanned instead
    // As many slices as the largest value needs (alt-TLD counts of 0-3: 3 slices, not 7).
    const slices = Array.from({ length: Math.max(1, 32 - Math.clz32(highest)) }, () => bitmapFor(size));
    for (let i = 0; i < size; i++) {
      const shifted = values[i]! + 1;
      for (let j = 0; j < slices.length; j++) if ((shifted >> j) & 1) slices[j]![i >>> 5]! |= 1 << (i & 31);
    }
    sliced[column] = slices;
  }
  for (const column of ['firstArchivedAt', 'droppedAt'] as const) {
    const slices = daySlices(columns[column]);
    if (slices) days[column] = slices;
  }
  const state: FeedClustersState = {
    columns: columns.state(),
    groups: Uint32Array.from(groupList),
    sliced,
    days,
    grams: labelGrams(columns),
  };
  return { state, rowOf };
}

/** Sets the bits of the seed's rows that lie in one of the ranges. */
function markSeed({ order, from, to }: FeedSeed, ranges: number[], bits: Uint32Array): void {
  const pairs = ranges.length >>> 1;
  // Decoded inline, as in the page walks (row-order.ts).
  const { low: orderLow, high: orderHigh } = order;
  for (let k = from; k < to; k++) {
    const i = orderLow[k]! | (orderHigh[k]! << 16);
    // The last range starting at or before i (binary search over the few ranges).
    let low = 0;
    let high = pairs;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ranges[middle * 2]! <= i) low = middle + 1;
      else high = middle;
    }
    if (low > 0 && i < ranges[low * 2 - 1]!) bits[i >>> 5]! |= 1 << (i & 31);
  }
}

const SLICES = 7;
/** Bit-sliced values are value + 1 in 0 … 127, in as many slices as a column's largest needs. */
const SLICED_TOP = (1 << SLICES) - 1;
const DAY_MS = 86_400_000;
/** Time columns spanning more days than this (2^20, ~2,900 years) are scanned instead. */
const MOST_DAYS = 1 << 20;

/**
 * A bound as codes of a bit-sliced column: keep rows whose code is within [low, high]; rows
 * whose code is an `edge` (low and / or high) are also checked against `exact`.
 */
interface SlicedBound {
  slices: Uint32Array[];
  low: number;
  high: number;
  exact?: ColumnBound & { lowEdge: boolean; highEdge: boolean };
}

/** A time column as slices of its rows' day codes: day - firstDay + 1 (UTC days of the times), NULL being 0. */
interface DaySlices {
  slices: Uint32Array[];
  firstDay: number;
  /** The highest code. */
  top: number;
}

function daySlices(column: TimeColumn): DaySlices | undefined {
  let firstDay = Number.POSITIVE_INFINITY;
  let lastDay = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < column.size; i++) {
    const day = Math.floor(column.time(i) / DAY_MS);
    if (day < firstDay) firstDay = day;
    if (day > lastDay) lastDay = day;
  }
  if (firstDay === Number.POSITIVE_INFINITY) return undefined; // no value at all
  const top = lastDay - firstDay + 1;
  if (top >= MOST_DAYS) return undefined;
  const slices = Array.from({ length: 32 - Math.clz32(top) }, () => bitmapFor(column.size));
  for (let i = 0; i < column.size; i++) {
    const time = column.time(i);
    if (Number.isNaN(time)) continue;
    const code = Math.floor(time / DAY_MS) - firstDay + 1;
    for (let j = 0; j < slices.length; j++) if ((code >> j) & 1) slices[j]![i >>> 5]! |= 1 << (i & 31);
  }
  return { slices, firstDay, top };
}

/** A bound on a small whole-number column, whose slices hold value + 1 (NO_VALUE being 0). */
const smallSliced = (slices: Uint32Array[], { min, max }: FeedBound): SlicedBound => ({
  slices,
  low: Math.max(0, Math.min(2 ** slices.length, min + 1)),
  high: Math.min(2 ** slices.length - 1, max + 1),
});

/**
 * A bound on a time column: its days, the rows on the first and last checked against the exact
 * times (`exact`: the bound in the column's codes).
 */
function daySliced({ slices, firstDay, top }: DaySlices, { min, max }: FeedBound, exact: ColumnBound): SlicedBound {
  const code = (time: number) => Math.floor(time / DAY_MS) - firstDay + 1;
  const low = Math.max(1, min === Number.NEGATIVE_INFINITY ? 1 : code(min));
  const high = Math.min(top, max === Number.POSITIVE_INFINITY ? top : code(max));
  return {
    slices,
    low: Math.min(low, top + 1),
    high,
    // A bound at a day's start (a date-only filter) takes or leaves that edge day whole: no exact reads there.
    exact: { ...exact, lowEdge: !startsDay(min), highEdge: !startsDay(max + 1) },
  };
}

/** Whether a time is the first millisecond of a UTC day (infinities too: their edge is never read). */
const startsDay = (time: number) => !Number.isFinite(time) || ((time % DAY_MS) + DAY_MS) % DAY_MS === 0;

/**
 * Keeps, in the words of rows [start, end), only the bits of rows whose bit-sliced code is
 * within [low, high], evaluated slice by slice from the highest bit for 32 rows at once (O'Neil
 * and Quass's range evaluation), and rows on an edge code only if their exact value passes.
 */
function keepSliced({ slices, low, high, exact }: SlicedBound, start: number, end: number, bits: Uint32Array) {
  if (high < low || low >= 2 ** slices.length) {
    for (let word = start >>> 5; word <= (end - 1) >>> 5; word++) bits[word] = 0;
    return;
  }
  for (let word = start >>> 5; word <= (end - 1) >>> 5; word++) {
    const mask = bits[word]! | 0;
    if (mask === 0) continue;
    let above = 0; // rows whose code is already known to exceed `low`
    let equalLow = mask; // rows equal to `low` in the bits seen so far
    let below = 0; // rows whose code is already known to be under `high`
    let equalHigh = mask;
    // From the highest bit down, until no row's code so far equals low's or high's (all decided).
    for (let j = slices.length - 1; j >= 0 && (equalLow | equalHigh) !== 0; j--) {
      const slice = slices[j]![word]! | 0;
      if ((low >> j) & 1) equalLow &= slice;
      else {
        above |= equalLow & slice;
        equalLow &= ~slice;
      }
      if ((high >> j) & 1) {
        below |= equalHigh & ~slice;
        equalHigh &= slice;
      } else equalHigh &= ~slice;
    }
    let kept = mask & (above | equalLow) & (below | equalHigh);
    if (exact) {
      const edges = kept & ((exact.lowEdge ? equalLow : 0) | (exact.highEdge ? equalHigh : 0));
      for (let rest = edges; rest !== 0; rest &= rest - 1) {
        const bit = 31 - Math.clz32(rest & -rest);
        const value = exact.values[(word << 5) | bit]!;
        if (!(value >= exact.min && value <= exact.max)) kept &= ~(1 << bit);
      }
    }
    bits[word] = kept;
  }
}

/** Clears the bits of rows in the words of [start, end) that fail `test`. */
function keepTested(test: (i: number) => boolean, start: number, end: number, bits: Uint32Array): void {
  for (let word = start >>> 5; word <= (end - 1) >>> 5; word++) {
    let mask = bits[word]! | 0;
    for (let rest = mask; rest !== 0; rest &= rest - 1) {
      const bit = 31 - Math.clz32(rest & -rest);
      if (!test((word << 5) | bit)) mask &= ~(1 << bit);
    }
    bits[word] = mask;
  }
}

/** Keeps, in the words of rows [start, end), only the bits also set in `flag`. */
function keepFlagged(flag: Uint32Array, start: number, end: number, bits: Uint32Array): void {
  for (let word = start >>> 5; word <= (end - 1) >>> 5; word++) bits[word]! &= flag[word]!;
}

/** Sets the bits of rows [start, end). */
function markAll(start: number, end: number, bits: Uint32Array): void {
  for (let i = start; i < end; ) {
    const word = i >>> 5;
    const stop = Math.min(end, (word + 1) << 5);
    const from = i & 31;
    const to = ((stop - 1) & 31) + 1;
    bits[word]! |= (to === 32 ? -1 : (1 << to) - 1) & ~((1 << from) - 1);
    i = stop;
  }
}

/** Sets the bits of rows in [start, end) whose value is within the bound. */
function markBound({ values, min, max }: ColumnBound, start: number, end: number, bits: Uint32Array) {
  for (let i = start; i < end; ) {
    const word = i >>> 5;
    const stop = Math.min(end, (word + 1) << 5);
    let mask = 0;
    for (; i < stop; i++) {
      const value = values[i]!;
      if (value >= min && value <= max) mask |= 1 << (i & 31);
    }
    bits[word]! |= mask;
  }
}

/** Clears the bits of rows in the words of [start, end) whose value is outside the bound. */
function keepBound({ values, min, max }: ColumnBound, start: number, end: number, bits: Uint32Array) {
  const last = bits.length - 1;
  for (let word = start >>> 5; word <= (end - 1) >>> 5 && word <= last; word++) {
    let mask = bits[word]!;
    if (mask === 0) continue;
    const base = word << 5;
    if ((mask & (mask - 1)) === 0) {
      // One row left in the word: test just it.
      const value = values[base + 31 - Math.clz32(mask)]!;
      if (!(value >= min && value <= max)) bits[word] = 0;
      continue;
    }
    const top = Math.min(32, end - base);
    for (let b = Math.max(0, start - base); b < top; b++) {
      const value = values[base + b]!;
      if (!(value >= min && value <= max)) mask &= ~(1 << b);
    }
    bits[word] = mask;
  }
}
