// The entry of the feed index build's worker thread (feed-build-worker.ts). A worker thread does
// not inherit the tsx loader its parent registered (bin/domain-intel.js), so it registers its own
// before loading TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./feed-build-worker.ts');
