import { parentPort, workerData } from 'node:worker_threads';
import { type FeedColumnChunksState, joinFeedColumnChunks } from './feed-column-chunks.ts';
import { FeedColumns } from './feed-columns.ts';
import { buildFeedIndexParts, feedIndexPartsState, transferablesOf } from './feed-index-parts.ts';

/**
 * The feed index build in a thread of its own (one per build), so the seconds of CPU it takes at
 * millions of rows never hold the API's event loop: it gets the loaded rows in chunks of columns
 * (their buffers transferred, not copied) as workerData, joins them, builds every part, and
 * transfers them back. A throw here reaches the API thread as the worker's 'error' event
 * (feed-build-client.ts).
 */
const loaded = workerData as FeedColumnChunksState;
const columns = new FeedColumns(joinFeedColumnChunks(loaded));
// The chunks were copied into the joined columns: let them go before the build allocates its parts.
loaded.chunks.length = 0;
const parts = feedIndexPartsState(buildFeedIndexParts(columns));
parentPort!.postMessage(parts, transferablesOf(parts));
