// The entry of the sort worker thread (sort-worker.ts). A worker thread does not inherit the tsx
// loader its parent registered (bin/domain-intel.js), so it registers its own before loading
// TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./sort-worker.ts');
