import { Worker } from 'node:worker_threads';
import { releaseFreedMemory } from '@repo/mapped-file';
import type { FeedColumnChunks, FeedColumnChunksState } from './feed-column-chunks.ts';
import {
  type FeedIndexParts,
  type FeedIndexPartsState,
  feedIndexPartsFromState,
  transferablesOf,
} from './feed-index-parts.ts';
import type { FeedIndexSnapshotMeta } from './feed-index-snapshot.ts';

/** The build worker's entry (feed-build-worker-entry.js registers tsx, then runs feed-build-worker.ts). */
export const FEED_BUILD_WORKER = new URL('./feed-build-worker-entry.js', import.meta.url);

export interface FeedBuildOptions {
  /** Aborting stops the worker (e.g. a newer feed version superseded this build); the promise then rejects with the reason. */
  signal?: AbortSignal;
  /** The worker's entry file; tests give one that fails. */
  entry?: URL;
}

/** Where the build worker writes the parts instead of sending them back (a snapshot file), and what it records there. */
export interface FeedSnapshotTarget {
  file: string;
  meta: FeedIndexSnapshotMeta;
}

/** What the build worker gets (feed-build-worker.ts). */
export interface FeedBuildWork {
  rows: FeedColumnChunksState;
  snapshot?: FeedSnapshotTarget;
}

/**
 * Builds the index parts of the rows in `rows` in a worker thread, leaving this thread free: the
 * chunks' buffers are transferred to it (no copy; `rows` is unusable afterwards) and the parts come
 * back on shared memory (shared-arrays.ts), so the only work here is wrapping them.
 * Rejects when the worker throws, dies or is aborted; the worker never outlives the promise.
 */
export async function buildFeedIndexPartsInWorker(
  rows: FeedColumnChunks,
  build: FeedBuildOptions = {},
): Promise<FeedIndexParts> {
  return feedIndexPartsFromState((await runBuildWorker(rows, undefined, build)) as FeedIndexPartsState);
}

/**
 * Builds the index parts of `rows` in a worker thread that writes them as the snapshot `target`
 * (feed-index-snapshot.ts) instead of sending them back: the parts never reach this thread, so
 * their memory goes when the worker ends (parts handed back on shared memory would wait here for a
 * full collection, which V8 does not start for shared memory). Rejects as buildFeedIndexPartsInWorker.
 */
export async function writeFeedIndexSnapshotInWorker(
  rows: FeedColumnChunks,
  target: FeedSnapshotTarget,
  build: FeedBuildOptions = {},
): Promise<void> {
  await runBuildWorker(rows, target, build);
}

/** Runs one build worker over `rows`; resolves to its one message. */
function runBuildWorker(
  rows: FeedColumnChunks,
  snapshot: FeedSnapshotTarget | undefined,
  { signal, entry = FEED_BUILD_WORKER }: FeedBuildOptions,
): Promise<unknown> {
  signal?.throwIfAborted();
  const work: FeedBuildWork = { rows: rows.state(), snapshot };
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: work, transferList: transferablesOf(work.rows) });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      outcome();
      // The worker is done (or failed): make sure its thread and memory are gone, then give back to the
      // system what the C allocator keeps of it (~50-60 MB per million rows otherwise, bench/feed-index-rss).
      // Best effort: a process without the addon built keeps that memory, as every process did before.
      void worker
        .terminate()
        .then(releaseFreedMemory)
        .catch(() => undefined);
    };
    const abort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (message: unknown) => settle(() => resolve(message)));
    worker.once('error', (error) =>
      settle(() => reject(new Error(`The feed index build worker failed: ${error.message}`, { cause: error }))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`The feed index build worker stopped before it finished (exit code ${code})`))),
    );
  });
}
