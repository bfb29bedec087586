import { isMainThread } from 'node:worker_threads';

/**
 * Zero-filled typed arrays and Buffers for the parts of the feed index, on shared memory
 * (SharedArrayBuffer) when they are built on a worker thread: the feed build worker
 * (feed-build-worker.ts) hands them to the API thread.
 *
 * Why: at 10 M rows the parts are ~1.2 GB. Handed over as transferred ArrayBuffers they arrived on
 * the API thread as that much new external memory at once, and V8 answered it there with a
 * scavenge and a mark-compact while the message was read: the API thread's longest pause of a
 * build was 45–64 ms. Shared buffers cross without a transfer (the worker and the API thread hold
 * the same memory) and the pause measured 15–30 ms with them. They are allocated shared where each
 * part is built, not copied at the end, so the worker never holds a part twice.
 *
 * Built on the main thread (saved-filter matching's RowIndex, an in-thread build) nothing crosses,
 * so the arrays are ordinary ones: V8 does not count shared memory when it decides to collect, so
 * a dropped shared array waits for a full collection that something else starts.
 */

interface TypedArrayType<T> {
  new (bufferOrLength: SharedArrayBuffer | number): T;
  readonly BYTES_PER_ELEMENT: number;
}

export function sharedArray<T>(Type: TypedArrayType<T>, length: number): T {
  return isMainThread ? new Type(length) : new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}

export function sharedBuffer(bytes: number): Buffer {
  return isMainThread ? Buffer.alloc(bytes) : Buffer.from(new SharedArrayBuffer(bytes));
}
