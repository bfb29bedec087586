import { parentPort, workerData } from 'node:worker_threads';
import { FeedColumns, type FeedColumnsState } from './feed-columns.ts';
import { buildFeedIndexParts, feedIndexPartsState, transferablesOf } from './feed-index-parts.ts';

/**
 * The feed index build in a thread of its own (one per build), so the seconds of CPU it takes at
 * millions of rows never hold the API's event loop: it gets the loaded columns (their buffers
 * transferred, not copied) as workerData, builds every part, and transfers them back. A throw
 * here reaches the API thread as the worker's 'error' event (feed-build-client.ts).
 */
const columns = new FeedColumns(workerData as FeedColumnsState);
const parts = feedIndexPartsState(buildFeedIndexParts(columns));
parentPort!.postMessage(parts, transferablesOf(parts));
