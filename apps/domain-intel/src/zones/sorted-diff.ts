export interface NameChange {
  name: string;
  /** removed: in the older list only (left the zone); added: in the newer list only. */
  change: 'removed' | 'added';
}

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/** Bytes compared at once right after a difference, and the most ever compared at once. */
const MIN_WINDOW = 256;
const MAX_WINDOW = 1 << 20;

/**
 * Newline-separated, sorted lines arriving in chunks, read in place: a line is a byte range of
 * the current buffer, so equal stretches are compared with memcmp and never decoded.
 */
class LineCursor {
  buffer: Buffer = EMPTY;
  position = 0;
  #ended = false;
  readonly #chunks: AsyncIterator<Buffer>;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  get available(): number {
    return Math.max(0, this.buffer.length - this.position);
  }

  /** Index of the end of the line at `position` (its newline, or the end of the data); -1 at the end. */
  async lineEnd(): Promise<number> {
    for (;;) {
      const newline = this.buffer.indexOf(NEWLINE, this.position);
      if (newline !== -1) return newline;
      if (this.#ended) return this.position < this.buffer.length ? this.buffer.length : -1;
      const next = await this.#chunks.next();
      if (next.done) {
        this.#ended = true;
        continue;
      }
      this.buffer =
        this.position < this.buffer.length
          ? Buffer.concat([this.buffer.subarray(this.position), next.value])
          : next.value;
      this.position = 0;
    }
  }

  text(end: number): string {
    return this.buffer.toString('latin1', this.position, end);
  }

  async return(): Promise<void> {
    await this.#chunks.return?.();
  }
}

/**
 * The streaming two-pointer merge of two sorted, de-duplicated line lists (byte order), in
 * memory bounded by the chunk size. Zones change little from day to day, so the merge first
 * compares a window of raw bytes of both sides: when equal, every line in it is unchanged and
 * is skipped without being split or decoded; the window doubles while that holds and falls back
 * to line-by-line steps around each difference.
 */
export async function* diffSortedLines(
  older: AsyncIterable<Buffer>,
  newer: AsyncIterable<Buffer>,
): AsyncGenerator<NameChange> {
  const a = new LineCursor(older);
  const b = new LineCursor(newer);
  try {
    let window = MIN_WINDOW;
    for (;;) {
      const span = Math.min(window, a.available, b.available);
      if (span > 0 && a.buffer.compare(b.buffer, b.position, b.position + span, a.position, a.position + span) === 0) {
        const lastNewline = a.buffer.lastIndexOf(NEWLINE, a.position + span - 1);
        if (lastNewline >= a.position) {
          const skipped = lastNewline + 1 - a.position;
          a.position += skipped;
          b.position += skipped;
          if (window < MAX_WINDOW) window *= 2;
          continue;
        }
      } else {
        window = MIN_WINDOW;
      }

      const endA = await a.lineEnd();
      const endB = await b.lineEnd();
      if (endA === -1 && endB === -1) return;
      if (endA === a.position) {
        a.position++; // blank line
        continue;
      }
      if (endB === b.position) {
        b.position++;
        continue;
      }
      const order = endA === -1 ? 1 : endB === -1 ? -1 : a.buffer.compare(b.buffer, b.position, endB, a.position, endA);
      if (order === 0) {
        a.position = endA + 1;
        b.position = endB + 1;
      } else if (order < 0) {
        yield { name: a.text(endA), change: 'removed' };
        a.position = endA + 1;
      } else {
        yield { name: b.text(endB), change: 'added' };
        b.position = endB + 1;
      }
    }
  } finally {
    await Promise.all([a.return(), b.return()]);
  }
}

/** Sorted names as newline-terminated byte chunks, for stores that only hand out strings. */
export async function* namesAsChunks(names: AsyncIterable<string>, batchSize = 4096): AsyncGenerator<Buffer> {
  let batch: string[] = [];
  for await (const name of names) {
    batch.push(name);
    if (batch.length >= batchSize) {
      yield Buffer.from(`${batch.join('\n')}\n`, 'latin1');
      batch = [];
    }
  }
  if (batch.length > 0) yield Buffer.from(`${batch.join('\n')}\n`, 'latin1');
}
