import { sharedArray } from './shared-arrays.ts';

/**
 * A sort's permutation (the row positions in the sort's order) in fewer bytes than a Uint32Array:
 * each position split into its low 16 bits and the bits above. Below 2^24 rows the high part is a
 * Uint8Array, 3 bytes a row where a Uint32Array took 4 (the five sorts: 20 → 15 bytes a row,
 * issue 35); from 2^24 rows on it is a Uint16Array (4 bytes a row, as before). Exact either way.
 *
 * Why two arrays and not 3 bytes packed in one: a walk along a sort reads `low[k] | (high[k] << 16)`
 * about as fast as a Uint32Array (measured over 10 M rows), where a packed Uint8Array was 35–65 %
 * slower. The hot loops (page walks) read the two arrays into locals and decode inline, as
 * rowAt does; everything else calls rowAt. One layout per size, so a process's loops see one
 * array type each and stay monomorphic.
 *
 * Plain data (two typed arrays), so it crosses threads and lands in a snapshot as is
 * (feed-index-parts.ts, typed-array-file.ts).
 */
export interface RowOrder {
  /** The low 16 bits of each position. */
  readonly low: Uint16Array;
  /** The bits above: a Uint8Array below 2^24 rows, a Uint16Array from there on. */
  readonly high: Uint8Array | Uint16Array;
}

/** Rows from which a position's high bits no longer fit in a byte. */
export const ROW_ORDER_BYTE_LIMIT = 2 ** 24;

/** The position at rank `k` of `order`. Positions stay below 2^31 (every bitmap indexes them as int32). */
export function rowAt(order: RowOrder, k: number): number {
  return order.low[k]! | (order.high[k]! << 16);
}

/** The permutation `positions` (consumed: the caller drops it) as a RowOrder, on shared memory (shared-arrays.ts). */
export function rowOrderOf(positions: Uint32Array): RowOrder {
  const size = positions.length;
  const low = sharedArray(Uint16Array, size);
  const high = size <= ROW_ORDER_BYTE_LIMIT ? sharedArray(Uint8Array, size) : sharedArray(Uint16Array, size);
  for (let k = 0; k < size; k++) {
    const i = positions[k]!;
    low[k] = i;
    high[k] = i >>> 16;
  }
  return { low, high };
}

/** Bytes a RowOrder holds. */
export function rowOrderBytes(order: RowOrder): number {
  return order.low.byteLength + order.high.byteLength;
}
