import { type FeedColumnRow, FeedColumns, type FeedColumnsState } from './feed-columns.ts';
import { FlagColumn } from './flag-column.ts';
import { LabelOffsets } from './label-offsets.ts';
import { sharedArray, sharedBuffer } from './shared-arrays.ts';
import { TimeColumn, type TimeColumnState } from './time-column.ts';

/** Rows per chunk: ~2.5 MB of columns and ~1 MB of domain text, allocated in well under a millisecond. */
const CHUNK_ROWS = 65_536;

/** FeedColumnChunks as plain data: what the index build's worker gets, every chunk's buffers transferred. */
export interface FeedColumnChunksState {
  /** Rows in all chunks together. */
  size: number;
  /** The rows in order, chunk after chunk, each chunk's state holding exactly its rows. */
  chunks: FeedColumnsState[];
}

/**
 * Feed rows appended to columns that grow a chunk at a time, so a load needs no row count up
 * front (a `count(*)` before it was one synchronous pause of the API thread on SQLite, ~7 ms per
 * million rows) and growing never copies the rows already read. The index build's worker reads
 * the chunks in place (FeedColumnChunksReader) as it groups the rows, off the API thread.
 */
export class FeedColumnChunks {
  readonly #chunks: Array<{ columns: FeedColumns; size: number }> = [];
  #size = 0;

  /** `chunkRows`: rows per chunk (tests make them small). */
  constructor(private readonly chunkRows = CHUNK_ROWS) {}

  /** The first `size` rows of `columns` as one chunk (no copy). */
  static of(columns: FeedColumns, size = columns.size): FeedColumnChunks {
    const chunks = new FeedColumnChunks();
    chunks.#chunks.push({ columns, size });
    chunks.#size = size;
    return chunks;
  }

  get size(): number {
    return this.#size;
  }

  /** Writes the next row (as the database driver gives it). */
  append(row: FeedColumnRow): void {
    let last = this.#chunks.at(-1);
    if (!last || last.size === last.columns.size) {
      last = { columns: new FeedColumns(this.chunkRows), size: 0 };
      this.#chunks.push(last);
    }
    last.columns.set(last.size++, row);
    this.#size++;
  }

  /** The rows as plain data over the chunks' own arrays: transferring its buffers leaves this unusable. */
  state(): FeedColumnChunksState {
    return { size: this.#size, chunks: this.#chunks.map(({ columns, size }) => columns.state(size)) };
  }
}

/**
 * The chunks' rows read in place, with one numbering of the TLDs (each chunk numbered them in the
 * order it met them). What the index build groups: it gathers the rows straight from the chunks
 * the load filled (gathered), so they are never joined into one set of columns first, a copy of
 * every row (~400 MB at 10 M rows) while the index is being built.
 */
export class FeedColumnChunksReader {
  readonly size: number;
  readonly chunks: readonly FeedColumnsState[];
  /** The TLDs of all chunks, in the order the rows first name them. */
  readonly tlds: string[] = [];
  /** Per chunk: its TLD code -> the code in `tlds`. */
  readonly tldCodes: Uint16Array[];
  /** Rows of every chunk but the last (which may hold fewer): row i is row i % chunkRows of chunk i / chunkRows. */
  readonly #chunkRows: number;

  constructor({ size, chunks }: FeedColumnChunksState) {
    this.size = size;
    this.chunks = chunks;
    this.#chunkRows = chunks[0]?.size ?? 0;
    if (chunks.some((chunk, c) => c < chunks.length - 1 && chunk.size !== this.#chunkRows)) {
      throw new Error('Feed column chunks must all hold the same number of rows but the last');
    }
    const codes = new Map<string, number>();
    this.tldCodes = chunks.map((chunk) =>
      Uint16Array.from(chunk.tlds, (tld) => {
        let code = codes.get(tld);
        if (code === undefined) {
          code = this.tlds.length;
          this.tlds.push(tld);
          codes.set(tld, code);
        }
        return code;
      }),
    );
  }

  /**
   * The rows in the order `order` (a permutation of all of them) gives: row k of the result is
   * row order[k] of the chunks, counted across them.
   */
  gathered(order: Uint32Array): FeedColumns {
    const size = order.length;
    if (size !== this.size) throw new Error('The order must be a permutation of all the rows');
    const chunkRows = this.#chunkRows;
    const column = <K extends keyof FeedColumnsState>(key: K) => this.chunks.map((chunk) => chunk[key]);
    const starts = column('labelStart').map((offsets) => new LabelOffsets(offsets));
    const bytes = column('labelBytes');
    const textBytes = this.chunks.reduce((sum, chunk) => sum + chunk.labelEnd, 0);
    const gathered: FeedColumnsState = {
      size,
      status: sharedArray(Uint8Array, size),
      tld: this.tlds.length <= 256 ? sharedArray(Uint8Array, size) : sharedArray(Uint16Array, size),
      tlds: [...this.tlds],
      droppedAt: this.#gatheredTimes('droppedAt', order),
      firstArchivedAt: this.#gatheredTimes('firstArchivedAt', order),
      altTldCount: narrowest(column('altTldCount'), order, chunkRows),
      da: sharedArray(Int8Array, size),
      tf: sharedArray(Int8Array, size),
      length: sharedArray(Int8Array, size),
      hasHyphen: gatherFlags(column('hasHyphen'), order, chunkRows),
      hasDigit: gatherFlags(column('hasDigit'), order, chunkRows),
      expectedDropAt: this.#gatheredTimes('expectedDropAt', order),
      labelBytes: sharedBuffer(textBytes),
      labelStart: LabelOffsets.empty(size).state(size),
      labelEnd: textBytes,
    };
    // One gather per element width, each over one array kind, so each loop stays monomorphic
    // (one generic loop over eleven array kinds ran ~5x slower); signed columns are gathered as
    // their unsigned views (same bytes).
    gatherBytes(column('status'), gathered.status, order, chunkRows);
    gatherBytes(column('da').map(unsigned8), unsigned8(gathered.da), order, chunkRows);
    gatherBytes(column('tf').map(unsigned8), unsigned8(gathered.tf), order, chunkRows);
    gatherBytes(column('length').map(unsigned8), unsigned8(gathered.length), order, chunkRows);
    // The TLD codes, renumbered into `tlds`, and the domains (a dozen bytes or so: a byte loop
    // beats a native copy call per row).
    const tlds = column('tld');
    const to = gathered.labelBytes;
    const outStarts = new LabelOffsets(gathered.labelStart);
    let end = 0;
    for (let k = 0; k < size; k++) {
      const c = (order[k]! / chunkRows) | 0;
      const j = order[k]! - c * chunkRows;
      gathered.tld[k] = this.tldCodes[c]![tlds[c]![j]!]!;
      const from = bytes[c]!;
      outStarts.set(k, end);
      for (let b = starts[c]!.start(j), stop = starts[c]!.start(j + 1); b < stop; b++) to[end++] = from[b]!;
    }
    outStarts.set(size, end);
    return new FeedColumns(gathered);
  }

  /** A time column's rows in the order `order` gives, in the codes their times fit best (time-column.ts). */
  #gatheredTimes(key: 'droppedAt' | 'firstArchivedAt' | 'expectedDropAt', order: Uint32Array): TimeColumnState {
    const chunkRows = this.#chunkRows;
    const times = this.chunks.map((chunk) => new TimeColumn(chunk[key]));
    return TimeColumn.encode(times, order.length, (k) => {
      const c = (order[k]! / chunkRows) | 0;
      return times[c]!.time(order[k]! - c * chunkRows);
    }).state();
  }
}

const unsigned8 = (array: Int8Array) => new Uint8Array(array.buffer, array.byteOffset, array.length);

function gatherBytes(from: Uint8Array[], to: Uint8Array, order: Uint32Array, chunkRows: number): void {
  for (let k = 0; k < order.length; k++) {
    const c = (order[k]! / chunkRows) | 0;
    to[k] = from[c]![order[k]! - c * chunkRows]!;
  }
}

/** A 0/1 column's bitmaps of zeros (FlagColumn), gathered into one (on shared memory in a build worker). */
function gatherFlags(from: Uint32Array[], order: Uint32Array, chunkRows: number): Uint32Array {
  const to = sharedArray(Uint32Array, FlagColumn.words(order.length));
  for (let k = 0; k < order.length; k++) {
    const c = (order[k]! / chunkRows) | 0;
    const j = order[k]! - c * chunkRows;
    to[k >>> 5]! |= ((from[c]![j >>> 5]! >>> (j & 31)) & 1) << (k & 31);
  }
  return to;
}

/**
 * A small whole-number column gathered into an Int8Array when every value fits one (alt-TLD counts
 * with up to 128 TLDs tracked), else an Int16Array.
 */
function narrowest(from: Array<Int8Array | Int16Array>, order: Uint32Array, chunkRows: number): Int8Array | Int16Array {
  const fits = from.every((chunk) => chunk.every((value) => value >= -128 && value <= 127));
  const to = fits ? sharedArray(Int8Array, order.length) : sharedArray(Int16Array, order.length);
  for (let k = 0; k < order.length; k++) {
    const c = (order[k]! / chunkRows) | 0;
    to[k] = from[c]![order[k]! - c * chunkRows]!;
  }
  return to;
}
