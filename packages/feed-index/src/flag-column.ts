/**
 * A 0/1 column (has_hyphen, has_digit) as a bitmap of its rows with 0 (bit i of word i >>> 5), an
 * eighth of a byte a row where an Int8 took one: the bitmap is what `hyphens=false` and
 * `digits=false` keep (an AND per 32 rows in FeedClusters), and the rows' values for the row matcher.
 */
export class FlagColumn {
  /** Over `zeros` as it is (not copied). */
  constructor(readonly zeros: Uint32Array) {}

  /** Words of the bitmap of `size` rows. */
  static words(size: number): number {
    return (size >>> 5) + 1;
  }

  /** Whether the values 0 and 1 are within the bound [min, max]. */
  static passing(min: number, max: number): { zero: boolean; one: boolean } {
    return { zero: min <= 0 && max >= 0, one: min <= 1 && max >= 1 };
  }

  /** Whether row i's value is 0. */
  isZero(i: number): boolean {
    return ((this.zeros[i >>> 5]! >>> (i & 31)) & 1) === 1;
  }

  /** Row i's value: 0 or 1. */
  value(i: number): number {
    return ((this.zeros[i >>> 5]! >>> (i & 31)) & 1) ^ 1;
  }

  /** Sets row i to `value` (0 or 1: any other value is refused, as it could not be kept). */
  set(i: number, value: number): void {
    if (value !== 0 && value !== 1) throw new Error(`A 0/1 column was given ${value}`);
    if (value === 0) this.zeros[i >>> 5]! |= 1 << (i & 31);
    else this.zeros[i >>> 5]! &= ~(1 << (i & 31));
  }

  /** The first `size` rows' bitmap (a view, not a copy). */
  state(size: number): Uint32Array {
    return this.zeros.subarray(0, FlagColumn.words(size));
  }
}
