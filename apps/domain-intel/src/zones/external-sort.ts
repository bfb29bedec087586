import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { temporaryPath } from '@repo/server-kit/temp-files';
import { compareBytes, type NameBatch, NameBatchWriter } from './name-batch.ts';
import { SortWorkerClient } from './sort-worker-client.ts';

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
 * memory: a worker thread (sort-worker.ts) sorts chunks of `chunkNames` and spills them as
 * runs while this thread goes on reading; the runs are then k-way merged here. Names travel as
 * bytes (NameBatch) all the way; empty names are dropped. The batches' bytes are transferred to
 * the worker: the caller must not reuse them.
 */
export async function* sortUnique(
  batches: AsyncIterable<NameBatch>,
  options: ExternalSortOptions,
): AsyncGenerator<NameBatch> {
  const runDir = temporaryPath(options.tempDir, 'sort');
  await mkdir(runDir, { recursive: true });
  const worker = new SortWorkerClient({ runDir, chunkNames: options.chunkNames });
  try {
    for await (const batch of batches) await worker.add(batch);
    const { runs, sorted } = await worker.finish();
    if (sorted) {
      if (sorted.count > 0) yield sorted;
      return;
    }
    yield* mergeRuns(runs);
  } finally {
    await worker.close();
    await rm(runDir, { recursive: true, force: true });
  }
}

/** Read size per run in the merge: ~160 runs are open at once for `.com`. */
const RUN_BUFFER_BYTES = 32 * 1024;
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
    const cursor = new RunCursor(createReadStream(file, { highWaterMark: RUN_BUFFER_BYTES }));
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
