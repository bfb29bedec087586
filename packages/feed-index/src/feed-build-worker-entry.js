// The entry of the feed index build's worker thread (feed-build-worker.ts) when the sources run
// through tsx; it loads them as the sort worker's entry does (zones/sort-worker-entry.js says why).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
require('./feed-build-worker.ts');
