/**
 * What `addPhoto` accepts, turned into a Blob for a multipart body. fetch's FormData takes
 * Blobs only, so a stream is read into memory, up to `maxBytes` (the platform's upload limit);
 * a file path becomes a file-backed Blob that Node reads while sending.
 */
export type PhotoSource =
  /** A file path (Node only). */
  | string
  | Blob
  | ArrayBuffer
  | Uint8Array
  /** A web stream (fetch bodies, browsers) or a Node Readable (any async iterable of bytes). */
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

export interface PreparedPhoto {
  blob: Blob;
  fileName: string;
}

/** 20 MiB: the platform's default UPLOAD_MAX_BYTES. */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export class PhotoTooLargeError extends Error {
  override readonly name = 'PhotoTooLargeError';
  readonly code = 'payload_too_large';
  constructor(readonly maxBytes: number) {
    super(`The photo is larger than ${maxBytes} bytes.`);
  }
}

export async function preparePhoto(
  source: PhotoSource,
  options: { contentType?: string; fileName?: string; maxBytes?: number },
): Promise<PreparedPhoto> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  let blob: Blob;
  let fileName = options.fileName;
  if (typeof source === 'string') {
    // Imported on use so that the module loads in browsers.
    const { openAsBlob } = await import('node:fs');
    blob = await openAsBlob(source);
    fileName ??= source.split(/[\\/]/).pop();
  } else if (source instanceof Blob) {
    blob = source;
    fileName ??= (source as Blob & { name?: string }).name;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    blob = new Blob([source as ArrayBuffer | Uint8Array<ArrayBuffer>]);
  } else {
    blob = await collect(source, maxBytes);
  }
  if (blob.size > maxBytes) throw new PhotoTooLargeError(maxBytes);
  const type =
    options.contentType ?? (blob.type || sniffImageType(new Uint8Array(await blob.slice(0, 16).arrayBuffer())));
  return { blob: blob.type === type ? blob : new Blob([blob], { type }), fileName: fileName || 'photo' };
}

async function collect(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, maxBytes: number) {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const iterable = Symbol.asyncIterator in source ? source : streamChunks(source);
  for await (const chunk of iterable) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new PhotoTooLargeError(maxBytes);
    chunks.push(chunk as Uint8Array<ArrayBuffer>);
  }
  return new Blob(chunks);
}

/** Browsers without async iteration of ReadableStream (Safari) read it by hand. */
async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * The MIME type to send with the upload, from the file's first bytes. The platform decides
 * by content itself; this only labels the part honestly when the caller gave no type.
 */
export function sniffImageType(head: Uint8Array): string {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return 'application/octet-stream';
}
