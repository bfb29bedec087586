import { popcount } from './feed-clusters.ts';
import type { FeedColumns } from './feed-columns.ts';

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
 *   exactly the union of `xy?` over every third symbol and END; a longer needle is a subset of
 *   the rows holding all of its trigrams (intersected rarest first, while that still pays), which
 *   the caller checks byte by byte.
 *
 * Built by a pure function from FeedColumns (typed arrays in, typed arrays out), so it can be
 * built wherever the columns are. About 5 bytes a row for the unigrams plus 1–2 bytes per
 * distinct trigram of a label.
 */
export interface LabelGrams {
  size: number;
  /** Words per row bitmap: (size >>> 5) + 1. */
  words: number;
  /** Unigram bitmaps, symbol s (1 … SYMBOLS - 1) at words · (s - 1). */
  unigrams: Uint32Array;
  /** Rows holding each trigram. */
  counts: Uint32Array;
  /** Trigram g's gap list is gaps[gapStart[g] … gapStart[g + 1]), empty for one held as a bitmap. */
  gapStart: Uint32Array;
  gaps: Uint8Array;
  /** Trigram g's bitmap is dense[words · denseSlot[g] …], or -1 when it is a gap list. */
  denseSlot: Int32Array;
  dense: Uint32Array;
}

/** How `markLabelGrams` answered: exactly the rows, a superset to check, or not at all (a byte outside the alphabet). */
export type GramAnswer = 'exact' | 'candidates' | 'unindexed';

/** END (0), a–z (1–26), 0–9 (27–36), `-` (37). */
const SYMBOLS = 38;
const END = 0;
const TRIGRAMS = SYMBOLS * SYMBOLS * SYMBOLS;
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

export function labelGrams(columns: FeedColumns): LabelGrams {
  const { size } = columns;
  const { bytes, starts } = columns.text;
  const words = (size >>> 5) + 1;
  const unigrams = new Uint32Array(words * (SYMBOLS - 1));
  const counts = new Uint32Array(TRIGRAMS);
  const gapLength = new Float64Array(TRIGRAMS);
  const last = new Int32Array(TRIGRAMS).fill(-1);
  const seen = new Int32Array(TRIGRAMS).fill(-1);
  // Pass 1: the unigram bitmaps, and how large each trigram's gap list would be.
  for (let i = 0; i < size; i++) {
    const start = starts[i]!;
    const end = starts[i + 1]!;
    const bit = 1 << (i & 31);
    const word = i >>> 5;
    for (let k = start; k < end && bytes[k] !== 0x2e; k++) {
      const s = SYMBOL_OF[bytes[k]!]!;
      if (s !== END) unigrams[words * (s - 1) + word]! |= bit;
    }
    forEachTrigram(bytes, start, end, i, seen, (g) => {
      counts[g]!++;
      gapLength[g]! += gapBytes(i - last[g]!);
      last[g] = i;
    });
  }
  // A trigram whose list would be larger than a bitmap is held as a bitmap.
  const gapStart = new Uint32Array(TRIGRAMS + 1);
  const denseSlot = new Int32Array(TRIGRAMS).fill(-1);
  let denseCount = 0;
  let total = 0;
  for (let g = 0; g < TRIGRAMS; g++) {
    gapStart[g] = total;
    if (gapLength[g]! > words * 4) denseSlot[g] = denseCount++;
    else total += gapLength[g]!;
  }
  gapStart[TRIGRAMS] = total;
  const gaps = new Uint8Array(total);
  const dense = new Uint32Array(words * denseCount);
  // Pass 2: the lists and bitmaps.
  const cursor = gapStart.slice(0, TRIGRAMS);
  last.fill(-1);
  seen.fill(-1);
  for (let i = 0; i < size; i++) {
    forEachTrigram(bytes, starts[i]!, starts[i + 1]!, i, seen, (g) => {
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
  return { size, words, unigrams, counts, gapStart, gaps, denseSlot, dense };
}

export function labelGramsBytes(grams: LabelGrams): number {
  const { unigrams, counts, gapStart, gaps, denseSlot, dense } = grams;
  return [unigrams, counts, gapStart, gaps, denseSlot, dense].reduce((sum, array) => sum + array.byteLength, 0);
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
  // 4+ bytes: the rows holding every one of the needle's trigrams, rarest first. The caller still
  // checks their bytes: the trigrams being in a label does not make them consecutive there.
  const trigrams = [
    ...new Set(symbols.slice(2).map((c, k) => (symbols[k]! * SYMBOLS + symbols[k + 1]!) * SYMBOLS + c)),
  ];
  trigrams.sort((a, b) => grams.counts[a]! - grams.counts[b]!);
  orTrigram(grams, trigrams[0]!, into);
  let candidates = grams.counts[trigrams[0]!]!;
  for (let t = 1; t < trigrams.length && candidates > 0; t++) {
    const g = trigrams[t]!;
    // Stop where reading the next trigram's rows costs more than checking the candidates' bytes.
    if (trigramBytes(grams, g) > BYTES_READ_PER_CHECK * candidates) break;
    const left = andTrigram(grams, g, into);
    // Stop once the candidates stop shrinking: a later (more common) trigram rarely does better.
    const shrank = left < candidates - (candidates >>> 4);
    candidates = left;
    if (!shrank) break;
  }
  return 'candidates';
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
