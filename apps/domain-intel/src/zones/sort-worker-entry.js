// The entry of the sort worker thread (sort-worker.ts) when the sources run through tsx (in the CLI's
// bundle, bin/cli-bundle.mjs, the worker is a bundle of its own and needs no loader). A worker thread
// gets no loader from its parent: on Node 20 module hooks are per thread (bin/domain-intel.js
// registered tsx's on the main thread only) and `--import tsx` registers none in a worker. tsx's ES
// module hooks would start a loader thread of their own and load tsx and esbuild there again (~0.17 s
// of CPU per worker); its CommonJS hooks transform the worker's few modules in this thread (~0.05 s).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('tsx/cjs/api').register();
require('./sort-worker.ts');
