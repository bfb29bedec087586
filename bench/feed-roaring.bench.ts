/**
 * The label grams' hand-written row lists (packages/feed-index label-grams.ts: per trigram a list
 * of position gaps in variable-length bytes, or a plain bitmap where that is smaller, plus own
 * lists for common substrings) against Roaring bitmaps (roaring-wasm, the maintained CRoaring
 * port that installs without a native build) for the same question the index asks: which rows'
 * labels contain a needle, as a bitmap of exact matches (what FeedClusters.mark consumes).
 *
 * - Hand-written: markLabelGrams, then the byte check where it answered with candidates.
 * - Roaring: one bitmap per trigram (END included, as the grams have it), a needle's trigrams
 *   ANDed (2 bytes: the 38 trigrams `xy?` ORed), the candidates byte-checked, the bits set.
 *
 * Both answer the same rows (the run checks the counts). Per needle the CPU time
 * (process.cpuUsage, steadier than the wall clock on the shared machine), median of RUNS; held
 * bytes of each structure. Ratio: Roaring's total time ÷ the hand-written total (above 1: slower).
 * Rows: FEED_ROARING_ROWS (default 1 M, the bench rows of domains-feed-index).
 */
import { cpus, loadavg } from 'node:os';
import { bitmapFor, type FeedColumns } from '@repo/feed-index';
import { labelGrams, labelGramsBytes, markLabelGrams } from '@repo/feed-index/label-grams.ts';
import { RoaringBitmap32, roaringLibraryInitialize } from 'roaring-wasm';
import { BenchLabels, commonNeedles } from './domains-feed-labels.ts';
import { feedBenchColumns } from './domains-feed-rows.ts';
import { report } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_ROARING_ROWS ?? 1_000_000);
const RUNS = 5;
const NOW = Date.now();
/** END (0), a–z (1–26), 0–9 (27–36), `-` (37), as label-grams.ts numbers them. */
const SYMBOLS = 38;
const symbolOf = (byte: number) =>
  byte >= 0x61 && byte <= 0x7a ? byte - 0x60 : byte >= 0x30 && byte <= 0x39 ? byte - 0x30 + 27 : byte === 0x2d ? 37 : 0;

/** Rows per trigram (each row once per trigram it holds), as plain sorted lists. */
function trigramRows(columns: FeedColumns): Map<number, Uint32Array> {
  const { bytes, starts } = columns.text;
  const lists = new Map<number, number[]>();
  for (let i = 0; i < columns.size; i++) {
    const symbols: number[] = [];
    for (let k = starts[i]!; k < starts[i + 1]! && bytes[k] !== 0x2e; k++) symbols.push(symbolOf(bytes[k]!));
    symbols.push(0);
    const seen = new Set<number>();
    for (let p = 0; p + 2 < symbols.length; p++) {
      if (symbols[p] === 0 || symbols[p + 1] === 0) continue;
      seen.add((symbols[p]! * SYMBOLS + symbols[p + 1]!) * SYMBOLS + symbols[p + 2]!);
    }
    for (const gram of seen) {
      const list = lists.get(gram);
      if (list) list.push(i);
      else lists.set(gram, [i]);
    }
  }
  return new Map([...lists].map(([gram, rows]) => [gram, Uint32Array.from(rows)]));
}

function roaringContains(
  columns: FeedColumns,
  bitmaps: Map<number, RoaringBitmap32>,
  needle: Buffer,
  bits: Uint32Array,
): number {
  const symbols = Array.from(needle, symbolOf);
  let candidates: RoaringBitmap32;
  if (symbols.length === 2) {
    candidates = new RoaringBitmap32();
    for (let c = 0; c < SYMBOLS; c++) {
      const rows = bitmaps.get((symbols[0]! * SYMBOLS + symbols[1]!) * SYMBOLS + c);
      if (rows) candidates.orInPlace(rows);
    }
  } else {
    const grams = [];
    for (let p = 0; p + 3 <= symbols.length; p++) {
      grams.push(bitmaps.get((symbols[p]! * SYMBOLS + symbols[p + 1]!) * SYMBOLS + symbols[p + 2]!));
    }
    if (grams.some((rows) => rows === undefined)) return 0;
    const sorted = (grams as RoaringBitmap32[]).sort((a, b) => a.size - b.size);
    candidates = sorted[0]!.clone();
    for (const rows of sorted.slice(1)) candidates.andInPlace(rows);
  }
  bits.fill(0);
  let count = 0;
  const exact = symbols.length <= 3;
  for (const i of candidates.toUint32Array()) {
    if (exact || columns.labelContains(i, needle)) {
      bits[i >>> 5]! |= 1 << (i & 31);
      count++;
    }
  }
  candidates.dispose();
  return count;
}

function handContains(
  columns: FeedColumns,
  grams: ReturnType<typeof labelGrams>,
  needle: Buffer,
  bits: Uint32Array,
): number {
  const answer = markLabelGrams(grams, needle, bits);
  let count = 0;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]! | 0;
    if (word === 0) continue;
    if (answer === 'candidates') {
      for (let rest = word; rest !== 0; rest &= rest - 1) {
        const bit = 31 - Math.clz32(rest & -rest);
        if (!columns.labelContains((w << 5) | bit, needle)) word &= ~(1 << bit);
      }
      bits[w] = word;
    }
    for (let rest = word; rest !== 0; rest &= rest - 1) count++;
  }
  return count;
}

/** Median CPU milliseconds of `run` over RUNS runs, and its answer. */
function cpuMs(run: () => number): { ms: number; answer: number } {
  const times: number[] = [];
  let answer = 0;
  for (let r = 0; r < RUNS; r++) {
    const before = process.cpuUsage();
    answer = run();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)]!, answer };
}

await roaringLibraryInitialize();
const loadAtStart = loadavg()[0]!.toFixed(1);
const columns = feedBenchColumns(ROWS, NOW);
let started = performance.now();
const grams = labelGrams(columns);
const handBuildS = (performance.now() - started) / 1000;
started = performance.now();
const bitmaps = new Map<number, RoaringBitmap32>();
for (const [gram, rows] of trigramRows(columns)) {
  const bitmap = RoaringBitmap32.from(rows);
  bitmap.runOptimize();
  bitmap.shrinkToFit();
  bitmaps.set(gram, bitmap);
}
const roaringBuildS = (performance.now() - started) / 1000;
let roaringBytes = 0;
for (const bitmap of bitmaps.values()) roaringBytes += bitmap.getSerializationSizeInBytes('croaring');

const sample = new BenchLabels();
const needles = [
  ...commonNeedles(Array.from({ length: 50_000 }, () => sample.next())),
  '777',
  'shop',
  'xq',
  'zzz',
  'online',
  'best',
  'qj',
  'casino',
];
const bits = bitmapFor(columns.size);
let handTotal = 0;
let roaringTotal = 0;
const perNeedle: Record<string, string | number> = {};
for (const text of needles) {
  const needle = Buffer.from(text, 'latin1');
  const hand = cpuMs(() => handContains(columns, grams, needle, bits));
  const roaring = cpuMs(() => roaringContains(columns, bitmaps, needle, bits));
  if (hand.answer !== roaring.answer) {
    throw new Error(`contains=${text}: hand-written lists found ${hand.answer} rows, Roaring ${roaring.answer}`);
  }
  handTotal += hand.ms;
  roaringTotal += roaring.ms;
  perNeedle[`${text}_rows`] = hand.answer;
  perNeedle[`${text}_hand_ms`] = hand.ms;
  perNeedle[`${text}_roaring_ms`] = roaring.ms;
}
report({
  name: `feed-roaring-${ROWS}-contains-cpu`,
  ratio: roaringTotal / handTotal,
  target: undefined,
  details: {
    rows: ROWS,
    needles: needles.length,
    hand_total_ms: handTotal,
    roaring_total_ms: roaringTotal,
    hand_mb: labelGramsBytes(grams) / 1e6,
    roaring_mb: roaringBytes / 1e6,
    hand_build_s: handBuildS,
    roaring_build_s: roaringBuildS,
    ...perNeedle,
    load_average: `${loadAtStart}-${loadavg()[0]!.toFixed(1)}`,
    processor: cpus()[0]!.model.replaceAll(' ', '_'),
  },
});
