import type { FeedColumns } from './feed-columns.ts';
import { popcount } from './popcount.ts';
import { sharedArray } from './shared-arrays.ts';

/**
 * Which rows' labels hold which bytes and byte triples, so `contains` reads the rows that hold
 * its needle instead of searching every label of the filter's groups.
 *
 * - Unigrams: for each label symbol (a–z, 0–9, `-`), a bitmap of the rows whose label holds it.
 *   A 1-byte needle is exactly that bitmap.
 * - Trigrams: for each triple of symbols, the rows whose label holds it (each row once), as a
 *   list of position gaps in variable-length bytes or, where that would be larger, as a bitmap
 *   (one bit per row). The third symbol may also be END: the label ends there (or a byte outside
 *   the alphabet follows). A 3-byte needle is exactly its trigram's rows; a 2-byte needle `xy`
 *   exactly the union of `xy?` over every third symbol and END.
 * - Common substrings: every substring of 4–10 symbols that at least COMMON_SHARE of the rows
 *   hold (found a length at a time, each from the common ones a symbol shorter), with its rows
 *   like a trigram's. A common needle (`tion`, `ation`, `xn--`) is exactly its rows. Any other
 *   needle of 4+ bytes is a subset of the rows holding all of its trigrams and common
 *   substrings (intersected rarest first, while that still pays), which the caller checks byte
 *   by byte: at most about COMMON_SHARE of the rows plus the trigrams' false positives.
 *
 * Built by a pure function from FeedColumns (typed arrays in, typed arrays out), so it can be
 * built wherever the columns are. About 5 bytes a row for the unigrams plus 1–2 bytes per
 * distinct trigram and common substring of a label.
 */
export interface LabelGrams {
  size: number;
  /** Words per row bitmap: (size >>> 5) + 1. */
  words: number;
  /** Unigram bitmaps, symbol s (1 … SYMBOLS - 1) at words · (s - 1). */
  unigrams: Uint32Array;
  /**
   * The common substrings of 4-10 symbols (held by at least COMMON_SHARE of the rows) as base-38
   * numbers, ascending: common substring k is gram TRIGRAMS + k of the tables below.
   */
  common: Float64Array;
  /** Rows holding each gram (trigrams, then common substrings). */
  counts: Uint32Array;
  /** Gram g's gap list is gaps[gapStart[g] … gapStart[g + 1]), empty for one held as a bitmap. */
  gapStart: Uint32Array;
  gaps: Uint8Array;
  /** Gram g's bitmap is dense[words · denseSlot[g] …], or -1 when it is a gap list. */
  denseSlot: Int32Array;
  dense: Uint32Array;
}

/** How `markLabelGrams` answered: exactly the rows, a superset to check, or not at all (a byte outside the alphabet). */
export type GramAnswer = 'exact' | 'candidates' | 'unindexed';

/** END (0), a–z (1–26), 0–9 (27–36), `-` (37). */
const SYMBOLS = 38;
const END = 0;
const TRIGRAMS = SYMBOLS * SYMBOLS * SYMBOLS;
/** The longest common substring kept: base-38 numbers of up to 10 symbols stay below 2^53. */
const LONGEST_COMMON = 10;
/**
 * A substring of 4+ symbols held by at least this share of the rows (and COMMON_LEAST rows) gets
 * a row list of its own, so a common needle (`tion`, `ation`, `online` …) is answered exactly
 * instead of byte-checking hundreds of thousands of candidates (measured: ~250 ns a candidate at
 * 10 M rows, a cache miss each); what is left to check is at most about this share of the rows
 * plus the trigrams' false positives.
 */
export const COMMON_SHARE = 1 / 1024;
const COMMON_LEAST = 64;
/** Rows whose substrings are counted to find the common ones (an even sample of the feed). */
const COMMON_SAMPLE = 100_000;
const SYMBOL_OF = (() => {
  const table = new Uint8Array(256); // END for every byte outside the alphabet
  for (let b = 0x61; b <= 0x7a; b++) table[b] = b - 0x61 + 1;
  for (let b = 0x30; b <= 0x39; b++) table[b] = b - 0x30 + 27;
  table[0x2d] = 37;
  return table;
})();

/**
 * Calls `each(g)` for every distinct-per-row trigram of row i's label (the domain up to its
 * first dot), the last one ending in END. `seen` (one Int32 per trigram, row number when seen)
 * makes each trigram count once a row.
 */
function forEachTrigram(
  bytes: Uint8Array,
  start: number,
  end: number,
  row: number,
  seen: Int32Array,
  each: (g: number) => void,
): void {
  let a = END;
  let b = END;
  for (let k = start; k <= end; k++) {
    const c = k === end || bytes[k] === 0x2e ? END : SYMBOL_OF[bytes[k]!]!;
    if (a !== END && b !== END) {
      const g = (a * SYMBOLS + b) * SYMBOLS + c;
      if (seen[g] !== row) {
        seen[g] = row;
        each(g);
      }
    }
    if (k === end || bytes[k] === 0x2e) return;
    a = b;
    b = c;
  }
}

const gapBytes = (gap: number) => (gap < 0x80 ? 1 : gap < 0x4000 ? 2 : gap < 0x200000 ? 3 : gap < 0x10000000 ? 4 : 5);

/**
 * The label grams of the columns' rows. `commonRows`: how many rows a substring of 4+ symbols must
 * be held by to get a row list of its own (by default COMMON_SHARE of the rows; tests lower it).
 */
export function labelGrams(
  columns: FeedColumns,
  commonRows = Math.max(COMMON_LEAST, Math.ceil(columns.size * COMMON_SHARE)),
): LabelGrams {
  const { size } = columns;
  const { bytes, starts } = columns.text;
  const words = (size >>> 5) + 1;
  const unigrams = sharedArray(Uint32Array, words * (SYMBOLS - 1));
  const trigramCounts = new Uint32Array(TRIGRAMS);
  const trigramSeen = new Int32Array(TRIGRAMS).fill(-1);
  // Pass 1: the unigram bitmaps and the trigrams' counts (which the common substrings start from).
  for (let i = 0; i < size; i++) {
    const start = starts[i]!;
    const end = starts[i + 1]!;
    const bit = 1 << (i & 31);
    const word = i >>> 5;
    for (let k = start; k < end && bytes[k] !== 0x2e; k++) {
      const s = SYMBOL_OF[bytes[k]!]!;
      if (s !== END) unigrams[words * (s - 1) + word]! |= bit;
    }
    forEachTrigram(bytes, start, end, i, trigramSeen, (g) => {
      trigramCounts[g]!++;
    });
  }
  const labels = new LabelSymbols(bytes, starts);
  const common = commonSubstrings(labels, size, trigramCounts, commonRows);
  const commonIds = new Map(Array.from(common, (key, k) => [key, TRIGRAMS + k]));
  const grams = TRIGRAMS + common.length;
  /** Every gram of row i once: its trigrams, then its common substrings. */
  const seen = new Int32Array(grams).fill(-1);
  const forEachGram = (i: number, each: (g: number) => void) => {
    forEachTrigram(bytes, starts[i]!, starts[i + 1]!, i, seen, each);
    if (common.length > 0) forEachCommon(labels.of(i), trigramCounts, commonRows, commonIds, i, seen, each);
  };
  // Pass 2: how large each gram's gap list would be.
  const counts = sharedArray(Uint32Array, grams);
  const gapLength = new Float64Array(grams);
  const last = new Int32Array(grams).fill(-1);
  for (let i = 0; i < size; i++) {
    forEachGram(i, (g) => {
      counts[g]!++;
      gapLength[g]! += gapBytes(i - last[g]!);
      last[g] = i;
    });
  }
  // A gram whose list would be larger than a bitmap is held as a bitmap.
  const gapStart = sharedArray(Uint32Array, grams + 1);
  const denseSlot = sharedArray(Int32Array, grams).fill(-1);
  let denseCount = 0;
  let total = 0;
  for (let g = 0; g < grams; g++) {
    gapStart[g] = total;
    if (gapLength[g]! > words * 4) denseSlot[g] = denseCount++;
    else total += gapLength[g]!;
  }
  gapStart[grams] = total;
  const gaps = sharedArray(Uint8Array, total);
  const dense = sharedArray(Uint32Array, words * denseCount);
  // Pass 3: the lists and bitmaps.
  const cursor = gapStart.slice(0, grams);
  last.fill(-1);
  seen.fill(-1);
  for (let i = 0; i < size; i++) {
    forEachGram(i, (g) => {
      const slot = denseSlot[g]!;
      if (slot >= 0) {
        dense[words * slot + (i >>> 5)]! |= 1 << (i & 31);
        return;
      }
      let gap = i - last[g]!;
      last[g] = i;
      let at = cursor[g]!;
      while (gap >= 0x80) {
        gaps[at++] = (gap & 0x7f) | 0x80;
        gap >>>= 7;
      }
      gaps[at++] = gap;
      cursor[g] = at;
    });
  }
  return { size, words, unigrams, common, counts, gapStart, gaps, denseSlot, dense };
}

/** A row's label as symbols (END where a byte outside the alphabet stands), in one reused array. */
class LabelSymbols {
  #symbols = new Uint8Array(256);
  length = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly starts: Uint32Array,
  ) {}

  of(i: number): this {
    const start = this.starts[i]!;
    const end = this.starts[i + 1]!;
    if (end - start > this.#symbols.length) this.#symbols = new Uint8Array(end - start);
    let n = 0;
    for (let k = start; k < end && this.bytes[k] !== 0x2e; k++) this.#symbols[n++] = SYMBOL_OF[this.bytes[k]!]!;
    this.length = n;
    return this;
  }

  get symbols(): Uint8Array {
    return this.#symbols;
  }
}

/** The trigram of symbols p … p + 2, or -1 when one is END (a needle never holds END). */
function trigramAt(symbols: Uint8Array, p: number): number {
  const a = symbols[p]!;
  const b = symbols[p + 1]!;
  const c = symbols[p + 2]!;
  return a === END || b === END || c === END ? -1 : (a * SYMBOLS + b) * SYMBOLS + c;
}

/**
 * Calls `each(g)` once for every common substring of the label (`seen` as in forEachTrigram).
 * From each position it extends the substring while it stays common: a longer one can only be
 * common if its prefix is (every row holding it holds the prefix).
 */
function forEachCommon(
  label: LabelSymbols,
  trigramCounts: Uint32Array,
  commonRows: number,
  ids: Map<number, number>,
  row: number,
  seen: Int32Array,
  each: (g: number) => void,
): void {
  const { symbols, length } = label;
  for (let p = 0; p + 4 <= length; p++) {
    const trigram = trigramAt(symbols, p);
    if (trigram < 0 || trigramCounts[trigram]! < commonRows) continue;
    let key = trigram;
    for (let k = p + 3; k < length && k - p < LONGEST_COMMON; k++) {
      if (symbols[k] === END) break;
      key = key * SYMBOLS + symbols[k]!;
      const g = ids.get(key);
      if (g === undefined) break;
      if (seen[g] !== row) {
        seen[g] = row;
        each(g);
      }
    }
  }
}

/**
 * The substrings of 4 … LONGEST_COMMON symbols that about `commonRows` rows or more hold, as
 * sorted base-38 numbers. Found a length at a time, in an even sample of at most COMMON_SAMPLE
 * rows (one pass over them each; the whole feed's passes cost ~5 s of CPU per million rows): a
 * substring of length n + 1 is counted only where its first and last n symbols are both common
 * already. Which substrings are chosen only decides what is fast: each one's rows are then
 * listed exactly from every row.
 */
function commonSubstrings(labels: LabelSymbols, size: number, trigramCounts: Uint32Array, commonRows: number) {
  const step = Math.max(1, Math.floor(size / COMMON_SAMPLE));
  // A sample's threshold a little lower, so a substring near the threshold is rather kept than missed.
  const sampleRows = step === 1 ? commonRows : Math.max(2, Math.floor((0.8 * commonRows) / step));
  const found: number[] = [];
  /** Whether the n-symbol substring at p is common (n = 3: its trigram; longer: found on the previous pass). */
  let isCommon = (symbols: Uint8Array, p: number) => {
    const trigram = trigramAt(symbols, p);
    return trigram >= 0 && trigramCounts[trigram]! >= commonRows;
  };
  for (let n = 4; n <= LONGEST_COMMON; n++) {
    const counts = new Map<number, number>();
    const lastRow = new Map<number, number>();
    for (let i = 0; i < size; i += step) {
      const { symbols, length } = labels.of(i);
      for (let p = 0; p + n <= length; p++) {
        if (!isCommon(symbols, p) || !isCommon(symbols, p + 1)) continue;
        let key = 0;
        for (let k = p; k < p + n; k++) key = key * SYMBOLS + symbols[k]!;
        if (lastRow.get(key) === i) continue;
        lastRow.set(key, i);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    const common = new Set<number>();
    for (const [key, count] of counts) if (count >= sampleRows) common.add(key);
    if (common.size === 0) break;
    found.push(...common);
    const length = n;
    isCommon = (symbols, p) => {
      if (p + length > symbols.length) return false;
      let key = 0;
      for (let k = p; k < p + length; k++) {
        if (symbols[k] === END) return false;
        key = key * SYMBOLS + symbols[k]!;
      }
      return common.has(key);
    };
  }
  const common = sharedArray(Float64Array, found.length);
  common.set(found);
  return common.sort();
}

export function labelGramsBytes(grams: LabelGrams): number {
  const { unigrams, common, counts, gapStart, gaps, denseSlot, dense } = grams;
  return [unigrams, common, counts, gapStart, gaps, denseSlot, dense].reduce((sum, array) => sum + array.byteLength, 0);
}

/**
 * Sets in `into` (a bitmap of grams.size rows; overwritten) the rows whose label contains
 * `needle`: exactly for needles of 1–3 bytes, a superset to check for longer ones.
 */
export function markLabelGrams(grams: LabelGrams, needle: Uint8Array, into: Uint32Array): GramAnswer {
  const symbols = Array.from(needle, (byte) => SYMBOL_OF[byte]!);
  if (symbols.length === 0 || symbols.includes(END)) return 'unindexed';
  const { words } = grams;
  if (symbols.length === 1) {
    into.set(grams.unigrams.subarray(words * (symbols[0]! - 1), words * symbols[0]!));
    return 'exact';
  }
  into.fill(0);
  if (symbols.length === 2) {
    const pair = (symbols[0]! * SYMBOLS + symbols[1]!) * SYMBOLS;
    for (let c = 0; c < SYMBOLS; c++) orTrigram(grams, pair + c, into);
    return 'exact';
  }
  if (symbols.length === 3) {
    orTrigram(grams, (symbols[0]! * SYMBOLS + symbols[1]!) * SYMBOLS + symbols[2]!, into);
    return 'exact';
  }
  // 4+ bytes: a common substring's own rows, exactly.
  const whole = commonGram(grams, symbols, 0, symbols.length);
  if (whole >= 0) {
    orTrigram(grams, whole, into);
    return 'exact';
  }
  // Otherwise the rows holding every one of the needle's trigrams and common substrings, rarest
  // first. The caller still checks their bytes: those being in a label does not make them
  // consecutive there.
  const found = new Set<number>();
  for (let p = 0; p + 3 <= symbols.length; p++) {
    found.add((symbols[p]! * SYMBOLS + symbols[p + 1]!) * SYMBOLS + symbols[p + 2]!);
    for (let end = p + 4; end <= Math.min(symbols.length, p + LONGEST_COMMON); end++) {
      const g = commonGram(grams, symbols, p, end);
      if (g < 0) break; // a longer one can only be common if this prefix is
      found.add(g);
    }
  }
  const trigrams = [...found];
  trigrams.sort((a, b) => grams.counts[a]! - grams.counts[b]!);
  orTrigram(grams, trigrams[0]!, into);
  let candidates = grams.counts[trigrams[0]!]!;
  for (let t = 1; t < trigrams.length && candidates > 0; t++) {
    const g = trigrams[t]!;
    // Stop where reading the next gram's rows costs more than checking the candidates' bytes.
    if (trigramBytes(grams, g) > BYTES_READ_PER_CHECK * candidates) break;
    const left = andTrigram(grams, g, into);
    // Stop once the candidates stop shrinking: a later (more common) gram rarely does better.
    const shrank = left < candidates - (candidates >>> 4);
    candidates = left;
    if (!shrank) break;
  }
  return 'candidates';
}

/** The gram of the common substring symbols[from … end) (4+ symbols), or -1 when it is not common. */
function commonGram({ common }: LabelGrams, symbols: number[], from: number, end: number): number {
  if (end - from > LONGEST_COMMON || common.length === 0) return -1;
  let key = 0;
  for (let k = from; k < end; k++) key = key * SYMBOLS + symbols[k]!;
  let low = 0;
  let high = common.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (common[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return common[low] === key ? TRIGRAMS + low : -1;
}

/**
 * How many bytes of a trigram's rows cost as much to read as one candidate's byte check (a call,
 * the label's bytes); roughly measured, and only the order of magnitude matters.
 */
const BYTES_READ_PER_CHECK = 16;

/** The bytes read to intersect with trigram g: its gap list, or its bitmap. */
function trigramBytes({ words, gapStart, denseSlot }: LabelGrams, g: number): number {
  return denseSlot[g]! >= 0 ? words * 4 : gapStart[g + 1]! - gapStart[g]!;
}

/** Keeps in `into` only the bits of trigram g's rows; returns how many bits are left. */
function andTrigram({ words, gapStart, gaps, denseSlot, dense }: LabelGrams, g: number, into: Uint32Array): number {
  let left = 0;
  const slot = denseSlot[g]!;
  if (slot >= 0) {
    const from = words * slot;
    for (let w = 0; w < words; w++) {
      const kept = into[w]! & dense[from + w]!;
      into[w] = kept;
      if (kept !== 0) left += popcount(kept);
    }
    return left;
  }
  // The list's rows in order, a word's worth at a time: that word keeps the list's bits, the words skipped none.
  let word = 0;
  let mask = 0;
  let row = -1;
  for (let at = gapStart[g]!, end = gapStart[g + 1]!; at < end; ) {
    let byte = gaps[at++]!;
    let gap = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = gaps[at++]!;
      gap += (byte & 0x7f) * 2 ** shift;
    }
    row += gap;
    const w = row >>> 5;
    if (w !== word) {
      const kept = into[word]! & mask;
      into[word] = kept;
      if (kept !== 0) left += popcount(kept);
      into.fill(0, word + 1, w);
      word = w;
      mask = 0;
    }
    mask |= 1 << (row & 31);
  }
  const kept = into[word]! & mask;
  into[word] = kept;
  if (kept !== 0) left += popcount(kept);
  into.fill(0, word + 1, words);
  return left;
}

/** Sets the bits of trigram g's rows. */
function orTrigram({ words, gapStart, gaps, denseSlot, dense }: LabelGrams, g: number, into: Uint32Array): void {
  const slot = denseSlot[g]!;
  if (slot >= 0) {
    const from = words * slot;
    for (let w = 0; w < words; w++) into[w]! |= dense[from + w]!;
    return;
  }
  let row = -1;
  for (let at = gapStart[g]!, end = gapStart[g + 1]!; at < end; ) {
    let byte = gaps[at++]!;
    let gap = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = gaps[at++]!;
      gap += (byte & 0x7f) * 2 ** shift;
    }
    row += gap;
    into[row >>> 5]! |= 1 << (row & 31);
  }
}
