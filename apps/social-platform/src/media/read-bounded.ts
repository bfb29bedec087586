import type { Readable } from 'node:stream';
import { appError } from '../error-catalogue.ts';

export const uploadTooLarge = (maxBytes: number) =>
  appError('payload_too_large', `The upload is larger than ${formatBytes(maxBytes)}.`);

/**
 * Collects a stream into memory, refusing it (and destroying the stream) as soon as it
 * passes `maxBytes`, so an oversize upload never occupies more than the limit.
 */
export async function readBounded(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    total += buffer.length;
    if (total > maxBytes) {
      stream.destroy();
      throw uploadTooLarge(maxBytes);
    }
    chunks.push(buffer);
  }
  // A multipart file stream cut off at its own size limit ends quietly, marked `truncated`.
  if ((stream as Readable & { truncated?: boolean }).truncated) throw uploadTooLarge(maxBytes);
  return Buffer.concat(chunks, total);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
