import { sharedArray } from './shared-arrays.ts';

/** Rows per block: a block's labels (at most 127 bytes each, FeedColumns) span at most 65,024 bytes. */
const BLOCK_SHIFT = 9;
/** The most bytes a label may have for its block to fit a Uint16 distance. */
export const MOST_LABEL_BYTES = 127;

/** LabelOffsets as plain data. */
export interface LabelOffsetsState {
  /** Per block of 512 rows, where its first row's label starts. */
  anchors: Uint32Array;
  /** Per row (and one past the last: the text's end), its label's distance from its block's anchor. */
  offsets: Uint16Array;
}

/**
 * Where each row's label starts in the labels' bytes, about 2 bytes a row where a Uint32 per row
 * took 4: a Uint32 anchor per block of 512 rows and each row's Uint16 distance from it (exact: a
 * block's labels span under 65,536 bytes). A start is one more read and an add.
 */
export class LabelOffsets {
  readonly anchors: Uint32Array;
  readonly offsets: Uint16Array;

  constructor({ anchors, offsets }: LabelOffsetsState) {
    this.anchors = anchors;
    this.offsets = offsets;
  }

  /** Room for the starts of `size` rows and the end of the last (on shared memory in a build worker). */
  static empty(size: number): LabelOffsets {
    return new LabelOffsets({
      anchors: sharedArray(Uint32Array, (size >>> BLOCK_SHIFT) + 1),
      offsets: sharedArray(Uint16Array, size + 1),
    });
  }

  /** Where row i's label starts (i = size: where the text ends). */
  start(i: number): number {
    return this.anchors[i >>> BLOCK_SHIFT]! + this.offsets[i]!;
  }

  /** Sets where row i's label starts; rows in order 0, 1, 2 … (a block's first row sets its anchor). */
  set(i: number, at: number): void {
    if ((i & ((1 << BLOCK_SHIFT) - 1)) === 0) this.anchors[i >>> BLOCK_SHIFT] = at;
    const offset = at - this.anchors[i >>> BLOCK_SHIFT]!;
    if (offset > 0xffff) throw new Error(`Labels of more than ${MOST_LABEL_BYTES} bytes cannot be placed`);
    this.offsets[i] = offset;
  }

  /** The starts of rows 0 … size as one Uint32Array, made now (for a build's passes over every label). */
  starts(size: number): Uint32Array {
    const starts = new Uint32Array(size + 1);
    for (let i = 0; i <= size; i++) starts[i] = this.start(i);
    return starts;
  }

  /** The first `size` rows (and their end) as plain data: views, not copies. */
  state(size: number): LabelOffsetsState {
    return {
      anchors: this.anchors.subarray(0, (size >>> BLOCK_SHIFT) + 1),
      offsets: this.offsets.subarray(0, size + 1),
    };
  }

  get bytes(): number {
    return this.anchors.byteLength + this.offsets.byteLength;
  }
}
