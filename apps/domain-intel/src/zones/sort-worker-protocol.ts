import type { NameBatch } from './name-batch.ts';

/** What the importing thread tells the sort worker at start (workerData). */
export interface SortWorkerSetup {
  /** An existing directory for the sorted runs. */
  runDir: string;
  chunkNames: number;
}

export type SortWorkerRequest =
  /** Newline-terminated names; their ArrayBuffer is transferred, not copied. */
  { type: 'batch'; bytes: Uint8Array } | { type: 'end' };

export type SortWorkerReply =
  | { type: 'ack' }
  /** The sorted runs to merge, or (no run spilled) all the names sorted in memory. */
  | { type: 'done'; runs: string[]; sorted?: NameBatch }
  | { type: 'error'; error: unknown };
