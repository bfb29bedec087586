import { parentPort, workerData } from 'node:worker_threads';
import type { FeedBuildWork } from './feed-build-client.ts';
import { buildFeedIndexParts, feedIndexPartsState, transferablesOf } from './feed-index-parts.ts';
import { writeFeedIndexSnapshot } from './feed-index-snapshot.ts';

/**
 * The feed index build in a thread of its own (one per build), so the seconds of CPU it takes at
 * millions of rows never hold the API's event loop: it gets the loaded rows in chunks of columns
 * (their buffers transferred, not copied) as workerData, builds every part from them (the grouping
 * gathers the rows straight from the chunks, then lets them go), and either sends the parts back
 * (built on shared memory, shared-arrays.ts: nothing large is transferred or copied) or, given a
 * snapshot file, writes them there and sends nothing large at all: the API thread maps the file, and
 * the parts' memory goes with this thread instead of waiting in the API thread for a full collection.
 * A throw here reaches the API thread as the worker's 'error' event (feed-build-client.ts).
 */
const { rows, snapshot } = workerData as FeedBuildWork;
const parts = buildFeedIndexParts(rows);
if (snapshot) {
  // No top-level await: the entry loads this file through require (feed-build-worker-entry.js). A failed
  // write rejects unhandled, which ends the worker with an 'error' event like a throw.
  void writeFeedIndexSnapshot(snapshot.file, parts, snapshot.meta).then(() =>
    parentPort!.postMessage({ written: snapshot.file }),
  );
} else {
  const state = feedIndexPartsState(parts);
  parentPort!.postMessage(state, transferablesOf(state));
}
