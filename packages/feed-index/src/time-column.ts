import { sharedArray } from './shared-arrays.ts';

/**
 * An epoch-ms column (dropped_at, first_archived_at, expected_drop_at) stored as codes: time =
 * base + unit · code, exact. A build picks, per column, base = its earliest time and unit = the
 * greatest common divisor of the times' distances from it (1 ms, 1,000 ms, a minute, a day …):
 * when every code then fits in 32 bits the codes are a Uint32Array, 4 bytes a row where the times
 * took 8. Otherwise (fractional times, or a span of more than 2^32 - 1 units, e.g. ms-precise
 * times over more than 49 days) the codes are the times themselves in a Float64Array (base 0,
 * unit 1), NaN for NULL; rows being loaded are kept that way too (`TimeColumn.raw`).
 *
 * Readers never decode in their loops: a bound is turned into codes once (`bound`, rounding
 * inward, so `min <= time <= max` exactly when `codes.min <= code <= codes.max`), and the
 * loops compare codes. NULL is MISSING_CODE in a Uint32Array (above every code a bound lets
 * through) or NaN in a Float64Array: either fails every bound, as NULL does in SQL.
 */
export interface TimeColumnState {
  base: number;
  unit: number;
  codes: Uint32Array | Float64Array;
}

/** NULL in a Uint32Array of codes. */
const MISSING_CODE = 0xffff_ffff;
/** The largest code of a time in a Uint32Array. */
const TOP_CODE = MISSING_CODE - 1;

export class TimeColumn {
  readonly base: number;
  readonly unit: number;
  /** Code per row (see the class). */
  readonly codes: Uint32Array | Float64Array;
  /** The largest code a time can have: a code above it (or NaN) is NULL. */
  readonly top: number;

  constructor(state: TimeColumnState) {
    this.base = state.base;
    this.unit = state.unit;
    this.codes = state.codes;
    this.top = state.codes instanceof Uint32Array ? TOP_CODE : Number.POSITIVE_INFINITY;
  }

  /** Times as they are (Float64, NaN for NULL) for `size` rows, written with `set`: what a load fills. */
  static raw(codes: Float64Array): TimeColumn {
    return new TimeColumn({ base: 0, unit: 1, codes });
  }

  /**
   * Rows k = 0 … size - 1 with the times `time(k)` (NaN for NULL) in the most compact exact codes
   * for the times of `parts` (the same times in another order, e.g. chunks a gather reads through a
   * permutation: they are scanned in their own order, sequentially, and `time` called once a row),
   * on shared memory when built on a worker (shared-arrays.ts).
   */
  static encode(parts: readonly TimeColumn[], size: number, time: (k: number) => number): TimeColumn {
    let base = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    let whole = true;
    for (const part of parts) {
      for (let i = 0; i < part.size; i++) {
        const value = part.time(i);
        if (Number.isNaN(value)) continue;
        if (value < base) base = value;
        if (value > last) last = value;
        whole &&= Number.isSafeInteger(value);
      }
    }
    if (base > last) base = last = 0; // no time at all: every code MISSING_CODE
    let unit = 0;
    for (const part of parts) {
      for (let i = 0; i < part.size && whole && unit !== 1; i++) {
        const value = part.time(i);
        if (!Number.isNaN(value)) unit = greatestCommonDivisor(unit, value - base);
      }
    }
    unit ||= 1; // every time the same, or none
    if (whole && (last - base) / unit <= TOP_CODE) {
      const codes = sharedArray(Uint32Array, size);
      for (let k = 0; k < size; k++) {
        const value = time(k);
        codes[k] = Number.isNaN(value) ? MISSING_CODE : (value - base) / unit;
      }
      return new TimeColumn({ base, unit, codes });
    }
    const codes = sharedArray(Float64Array, size);
    for (let k = 0; k < size; k++) codes[k] = time(k);
    return TimeColumn.raw(codes);
  }

  /** The first `size` rows as plain data (a view of the codes, not a copy). */
  state(size = this.size): TimeColumnState {
    return { base: this.base, unit: this.unit, codes: this.codes.subarray(0, size) };
  }

  get size(): number {
    return this.codes.length;
  }

  /** Row i's time (epoch ms), NaN for NULL: for building (sort keys, day slices) and tests, not for query loops. */
  time(i: number): number {
    return this.timeOf(this.codes[i]!);
  }

  /** The time of a code (NaN for NULL). */
  timeOf(code: number): number {
    return code <= this.top ? this.base + this.unit * code : Number.NaN;
  }

  /** Sets row i of a raw column (`raw`): encoded columns are built whole by `encode`. */
  set(i: number, time: number | null): void {
    this.codes[i] = time ?? Number.NaN;
  }

  /** Whether a code stands for NULL. */
  missing(code: number): boolean {
    return !(code <= this.top);
  }

  /**
   * The inclusive time bound [min, max] (infinite for an open end) as codes: a time passes the
   * bound exactly when its code is within the result (an empty bound gives min > max).
   */
  bound(min: number, max: number): { min: number; max: number } {
    if (this.codes instanceof Float64Array) return { min, max };
    // The least code whose time is >= min, the greatest whose time is <= max, kept within
    // [0, TOP_CODE] (so MISSING_CODE is never within).
    const { base, unit } = this;
    let low = min <= base ? 0 : Math.min(Math.ceil((min - base) / unit), TOP_CODE + 1);
    let high =
      max === Number.POSITIVE_INFINITY ? TOP_CODE : Math.max(-1, Math.min(Math.floor((max - base) / unit), TOP_CODE));
    // The division may round the wrong way for distances near 2^53 ms: settle each end on the times themselves.
    while (low > 0 && base + unit * (low - 1) >= min) low--;
    while (low <= TOP_CODE && base + unit * low < min) low++;
    while (high < TOP_CODE && base + unit * (high + 1) <= max) high++;
    while (high >= 0 && base + unit * high > max) high--;
    return { min: low, max: high };
  }

  /** Bytes held. */
  get bytes(): number {
    return this.codes.byteLength;
  }
}

/** The greatest common divisor of two non-negative safe integers. */
function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
