import { Worker } from 'node:worker_threads';
import type { FeedColumnChunks } from './feed-column-chunks.ts';
import {
  type FeedIndexParts,
  type FeedIndexPartsState,
  feedIndexPartsFromState,
  transferablesOf,
} from './feed-index-parts.ts';

/** The build worker's entry (feed-build-worker-entry.js registers tsx, then runs feed-build-worker.ts). */
export const FEED_BUILD_WORKER = new URL('./feed-build-worker-entry.js', import.meta.url);

export interface FeedBuildOptions {
  /** Aborting stops the worker (e.g. a newer feed version superseded this build); the promise then rejects with the reason. */
  signal?: AbortSignal;
  /** The worker's entry file; tests give one that fails. */
  entry?: URL;
}

/**
 * Builds the index parts of the rows in `rows` in a worker thread, leaving this thread free: the
 * chunks' buffers are transferred to it (no copy; `rows` is unusable afterwards) and the parts come
 * back on shared memory (shared-arrays.ts), so the only work here is wrapping them.
 * Rejects when the worker throws, dies or is aborted; the worker never outlives the promise.
 */
export function buildFeedIndexPartsInWorker(
  rows: FeedColumnChunks,
  { signal, entry = FEED_BUILD_WORKER }: FeedBuildOptions = {},
): Promise<FeedIndexParts> {
  signal?.throwIfAborted();
  const state = rows.state();
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: state, transferList: transferablesOf(state) });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      outcome();
      // The worker is done (or failed): make sure its thread and memory are gone.
      void worker.terminate();
    };
    const abort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (parts: FeedIndexPartsState) => {
      settle(() => {
        try {
          resolve(feedIndexPartsFromState(parts));
        } catch (error) {
          reject(error);
        }
      });
    });
    worker.once('error', (error) =>
      settle(() => reject(new Error(`The feed index build worker failed: ${error.message}`, { cause: error }))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The feed index build worker stopped before it finished (exit code ${code})`))),
    );
  });
}
