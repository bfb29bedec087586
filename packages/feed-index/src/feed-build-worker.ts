import { parentPort, workerData } from 'node:worker_threads';
import type { FeedColumnChunksState } from './feed-column-chunks.ts';
import { buildFeedIndexParts, feedIndexPartsState, transferablesOf } from './feed-index-parts.ts';

/**
 * The feed index build in a thread of its own (one per build), so the seconds of CPU it takes at
 * millions of rows never hold the API's event loop: it gets the loaded rows in chunks of columns
 * (their buffers transferred, not copied) as workerData, builds every part from them (the grouping
 * gathers the rows straight from the chunks, then lets them go), and sends the parts back (built on
 * shared memory, shared-arrays.ts: nothing large is transferred or copied). A
 * throw here reaches the API thread as the worker's 'error' event (feed-build-client.ts).
 */
const parts = feedIndexPartsState(buildFeedIndexParts(workerData as FeedColumnChunksState));
parentPort!.postMessage(parts, transferablesOf(parts));
