/**
 * Zero-filled typed arrays and Buffers on shared memory (SharedArrayBuffer), for every part the
 * feed build worker hands back to the API thread (feed-build-worker.ts).
 *
 * Why: at 10 M rows the parts are ~1.2 GB. Handed over as transferred ArrayBuffers they arrive on
 * the API thread as that much new external memory at once, and V8 answered it there with a
 * scavenge and a mark-compact while the message was read: the API thread's longest pause of a
 * build was 46–64 ms. Shared buffers cross without a transfer (the worker and the API thread hold
 * the same memory) and the pause measured 18 ms with them. They are allocated shared where each
 * part is built, not copied at the end, so the worker never holds a part twice.
 */

interface TypedArrayType<T> {
  new (buffer: SharedArrayBuffer): T;
  readonly BYTES_PER_ELEMENT: number;
}

export function sharedArray<T>(Type: TypedArrayType<T>, length: number): T {
  return new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}

export function sharedBuffer(bytes: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(bytes));
}
