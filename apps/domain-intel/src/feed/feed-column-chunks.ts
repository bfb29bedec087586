import { type FeedColumnRow, FeedColumns, type FeedColumnsState } from './feed-columns.ts';

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
 * million rows) and growing never copies the rows already read. The index build's worker joins
 * the chunks (joinFeedColumnChunks), off the API thread.
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

/** The chunks' rows as the state of one set of columns (copied, unless there is a single chunk). */
export function joinFeedColumnChunks({ size, chunks }: FeedColumnChunksState): FeedColumnsState {
  if (chunks.length === 1) return chunks[0]!;
  const textBytes = chunks.reduce((sum, chunk) => sum + chunk.domainEnd, 0);
  const joined: FeedColumnsState = {
    size,
    status: new Uint8Array(size),
    tld: new Uint16Array(size),
    tlds: [],
    droppedAt: new Float64Array(size),
    firstArchivedAt: new Float64Array(size),
    altTldCount: new Int16Array(size),
    da: new Int8Array(size),
    tf: new Int8Array(size),
    length: new Int16Array(size),
    hasHyphen: new Int8Array(size),
    hasDigit: new Int8Array(size),
    expectedDropAt: new Float64Array(size),
    domainBytes: new Uint8Array(textBytes),
    domainStart: new Uint32Array(size + 1),
    domainEnd: textBytes,
  };
  const tldCodes = new Map<string, number>();
  let row = 0;
  let text = 0;
  for (const chunk of chunks) {
    joined.status.set(chunk.status, row);
    joined.droppedAt.set(chunk.droppedAt, row);
    joined.firstArchivedAt.set(chunk.firstArchivedAt, row);
    joined.altTldCount.set(chunk.altTldCount, row);
    joined.da.set(chunk.da, row);
    joined.tf.set(chunk.tf, row);
    joined.length.set(chunk.length, row);
    joined.hasHyphen.set(chunk.hasHyphen, row);
    joined.hasDigit.set(chunk.hasDigit, row);
    joined.expectedDropAt.set(chunk.expectedDropAt, row);
    joined.domainBytes.set(chunk.domainBytes.subarray(0, chunk.domainEnd), text);
    // Each chunk numbered the TLDs it met in its own order: renumber them in the joined list's.
    const codes = chunk.tlds.map((tld) => {
      let code = tldCodes.get(tld);
      if (code === undefined) {
        code = joined.tlds.length;
        joined.tlds.push(tld);
        tldCodes.set(tld, code);
      }
      return code;
    });
    for (let i = 0; i < chunk.size; i++) {
      joined.tld[row + i] = codes[chunk.tld[i]!]!;
      joined.domainStart[row + i] = chunk.domainStart[i]! + text;
    }
    row += chunk.size;
    text += chunk.domainEnd;
  }
  joined.domainStart[size] = text;
  return joined;
}
