import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { gzip, constants as zlibConstants } from 'node:zlib';
import type { NameBatch } from './name-batch.ts';
import { SortChunk } from './sort-chunk.ts';
import type { SortWorkerReply, SortWorkerRequest, SortWorkerSetup } from './sort-worker-protocol.ts';

/**
 * The sorting half of the external sort, in a thread of its own so that it runs on the second
 * core while the importing thread decompresses and parses (as `sort` runs beside `zcat | awk`):
 * it fills chunks with the names it is sent, sorts each full chunk and spills it as a gzip run.
 * Requests are handled one at a time, in order; each batch is acknowledged once it is in a chunk,
 * which is what bounds the batches in flight.
 */
const { runDir, chunkNames } = workerData as SortWorkerSetup;
const gzipAsync = promisify(gzip);
const chunk = new SortChunk(chunkNames);
const runs: string[] = [];
let queue = Promise.resolve();

parentPort!.on('message', (request: SortWorkerRequest) => {
  queue = queue.then(() => handle(request)).catch((error: unknown) => reply({ type: 'error', error }));
});

async function handle(request: SortWorkerRequest): Promise<void> {
  if (request.type === 'batch') {
    for (let position = 0; position < request.bytes.length; ) {
      // A full chunk is spilled only when more names come: a zone that fits in one chunk is
      // never written out and read back.
      if (chunk.full) await spill(chunk.sortedDistinct());
      position = chunk.addPacked(request.bytes, position);
    }
    reply({ type: 'ack' });
    return;
  }
  if (runs.length === 0) {
    const sorted = chunk.sortedDistinct();
    reply({ type: 'done', runs, sorted }, [sorted.bytes.buffer as ArrayBuffer]);
    return;
  }
  if (chunk.length > 0) await spill(chunk.sortedDistinct());
  reply({ type: 'done', runs });
}

async function spill(sorted: NameBatch): Promise<void> {
  const file = path.join(runDir, `run-${String(runs.length).padStart(5, '0')}.gz`);
  // Level 1: runs are read once, soon; the point is to cut temp disk use ~4× at little CPU cost.
  await writeFile(file, await gzipAsync(sorted.bytes, { level: zlibConstants.Z_BEST_SPEED }));
  runs.push(file);
}

function reply(message: SortWorkerReply, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}
