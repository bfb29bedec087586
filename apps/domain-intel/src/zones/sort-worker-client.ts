import { Worker } from 'node:worker_threads';
import type { NameBatch } from './name-batch.ts';
import type { SortWorkerReply, SortWorkerRequest, SortWorkerSetup } from './sort-worker-protocol.ts';

/**
 * Batches sent to the worker and not yet in a chunk. While the worker sorts and spills a full
 * chunk, the importing thread keeps parsing until this many batches (~256 KiB each, ~15,000
 * names) wait: about one chunk of a million names, so both cores stay busy and memory stays bounded.
 */
const BATCHES_IN_FLIGHT = 64;

/** The importing thread's handle on the sort worker (sort-worker.ts). */
export class SortWorkerClient {
  readonly #worker: Worker;
  #inFlight = 0;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  #result: { runs: string[]; sorted?: NameBatch } | undefined;

  constructor(setup: SortWorkerSetup) {
    this.#worker = new Worker(new URL('./sort-worker-entry.js', import.meta.url), { workerData: setup });
    this.#worker.on('message', (reply: SortWorkerReply) => {
      if (reply.type === 'ack') this.#inFlight--;
      else if (reply.type === 'done') this.#result = reply;
      else this.#fail(reply.error);
      this.#notify();
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The sort worker stopped (exit code ${code})`)));
  }

  /** Hands a batch to the worker (its bytes are transferred: the caller must not touch them again). */
  async add(batch: NameBatch): Promise<void> {
    this.#throwIfFailed();
    this.#post({ type: 'batch', bytes: batch.bytes }, [batch.bytes.buffer as ArrayBuffer]);
    this.#inFlight++;
    while (this.#inFlight >= BATCHES_IN_FLIGHT) {
      await this.#next();
      this.#throwIfFailed();
    }
  }

  /** Sorts what is left; the runs to merge, or all names sorted in memory when nothing was spilled. */
  async finish(): Promise<{ runs: string[]; sorted?: NameBatch }> {
    this.#throwIfFailed();
    this.#post({ type: 'end' });
    while (this.#result === undefined) {
      await this.#next();
      this.#throwIfFailed();
    }
    return this.#result;
  }

  async close(): Promise<void> {
    this.#failure ??= new Error('The sort worker was closed');
    await this.#worker.terminate();
  }

  #post(request: SortWorkerRequest, transfer: ArrayBuffer[] = []): void {
    this.#worker.postMessage(request, transfer);
  }

  /** Resolves at the worker's next message or failure. */
  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #fail(error: unknown): void {
    this.#failure ??= error instanceof Error ? error : new Error(String(error));
    this.#notify();
  }

  #throwIfFailed(): void {
    if (this.#failure) throw this.#failure;
  }
}
