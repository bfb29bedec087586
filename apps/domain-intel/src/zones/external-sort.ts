import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip, constants as zlibConstants } from 'node:zlib';
import { temporaryPath } from '@repo/server-kit';
import { openDecompressed } from './byte-source.ts';
import { compareBytes, type NameBatch, NameBatchWriter } from './name-batch.ts';
import { SortChunk } from './sort-chunk.ts';

const gzipAsync = promisify(gzip);

export interface ExternalSortOptions {
  /**
   * Where sorted runs are spilled; a private sub-directory (a server-kit temporary name, so a
   * crashed import's runs are swept at the next start) is created and removed.
   */
  tempDir: string;
  /** Names held in memory at once; bounds memory (~40 bytes per name). */
  chunkNames: number;
}

/**
 * Sorts batches of names in byte order (as `LC_ALL=C sort -u`) and drops duplicates, in bounded
 * memory: chunks of `chunkNames` are sorted in memory and spilled to gzip runs, then k-way merged.
 * Names travel as bytes (NameBatch) all the way; empty names are dropped.
 */
export async function* sortUnique(
  batches: AsyncIterable<NameBatch>,
  options: ExternalSortOptions,
): AsyncGenerator<NameBatch> {
  const runDir = temporaryPath(options.tempDir, 'sort');
  const runs: string[] = [];
  try {
    const chunk = new SortChunk(options.chunkNames);
    for await (const batch of batches) {
      for (let position = 0; position < batch.bytes.length; ) {
        position = chunk.addPacked(batch.bytes, position);
        if (chunk.full) {
          if (runs.length === 0) await mkdir(runDir, { recursive: true });
          runs.push(await spillRun(chunk.sortedDistinct(), runDir, runs.length));
        }
      }
    }
    if (runs.length === 0) {
      const sorted = chunk.sortedDistinct();
      if (sorted.count > 0) yield sorted;
      return;
    }
    if (chunk.length > 0) runs.push(await spillRun(chunk.sortedDistinct(), runDir, runs.length));
    yield* mergeRuns(runs);
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

async function spillRun(sorted: NameBatch, dir: string, index: number): Promise<string> {
  const file = path.join(dir, `run-${String(index).padStart(5, '0')}.gz`);
  // Level 1: runs are read once, soon; the point is to cut temp disk use ~4× at little CPU cost.
  // zlib works in libuv's thread pool, off the thread that parses.
  await writeFile(file, await gzipAsync(sorted.bytes, { level: zlibConstants.Z_BEST_SPEED }));
  return file;
}

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);

/** A sorted run being read in place: its current name is buffer[start, end). */
class RunCursor {
  buffer: Buffer = EMPTY;
  start = 0;
  end = 0;
  #next = 0;
  readonly #chunks: AsyncIterator<Buffer>;

  constructor(chunks: AsyncIterable<Buffer>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Moves to the next name held in the buffer; false when the buffer has no complete one left. */
  step(): boolean {
    const buffer = this.buffer;
    for (let at = this.#next; at < buffer.length; at++) {
      if (buffer[at] !== NEWLINE) continue;
      this.start = this.#next;
      this.end = at;
      this.#next = at + 1;
      return true;
    }
    return false;
  }

  /** Moves to the next name, reading more of the run when needed; false at the end of the run. */
  async advance(): Promise<boolean> {
    while (!this.step()) {
      const next = await this.#chunks.next();
      if (next.done) return false; // runs end with a newline: nothing is left over
      this.buffer =
        this.#next < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.#next), next.value]) : next.value;
      this.#next = 0;
    }
    return true;
  }
}

async function* mergeRuns(files: string[]): AsyncGenerator<NameBatch> {
  const heap = new CursorHeap();
  for (const file of files) {
    const cursor = new RunCursor(await openDecompressed(file));
    if (await cursor.advance()) heap.push(cursor);
  }
  // The writer drops a name equal to the one before it: the same name from two runs.
  const out = new NameBatchWriter({ foldCase: false });
  for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
    out.add(top.buffer, top.start, top.end);
    if (out.full) yield out.take()!;
    if (top.step() || (await top.advance())) heap.siftDownTop();
    else heap.popTop();
  }
  const last = out.take();
  if (last) yield last;
}

const before = (a: RunCursor, b: RunCursor) => compareBytes(a.buffer, a.start, a.end, b.buffer, b.start, b.end) < 0;

/** Binary min-heap of run cursors ordered by their current name. */
class CursorHeap {
  readonly #items: RunCursor[] = [];

  peek(): RunCursor | undefined {
    return this.#items[0];
  }

  push(cursor: RunCursor): void {
    const items = this.#items;
    items.push(cursor);
    let child = items.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!before(items[child]!, items[parent]!)) break;
      [items[parent], items[child]] = [items[child]!, items[parent]!];
      child = parent;
    }
  }

  popTop(): void {
    const last = this.#items.pop()!;
    if (this.#items.length > 0) {
      this.#items[0] = last;
      this.siftDownTop();
    }
  }

  /** Restores order after the top cursor advanced. */
  siftDownTop(): void {
    const items = this.#items;
    let parent = 0;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < items.length && before(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && before(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === parent) return;
      [items[parent], items[smallest]] = [items[smallest]!, items[parent]!];
      parent = smallest;
    }
  }
}
