import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { errorMessage } from '@repo/server-kit';
import { ZoneError } from './errors.ts';

const GZIP_MAGIC = [0x1f, 0x8b] as const;
/** zlib's default output chunk is 16 KiB; bigger chunks mean fewer JS round trips per byte. */
const GUNZIP_CHUNK_BYTES = 128 * 1024;
/** No master-file line is anywhere near this long; a file without newlines must not fill memory. */
export const MAX_LINE_BYTES = 1024 * 1024;

export async function isGzipFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    await handle.close();
  }
}

/**
 * The decompressed bytes of a file, gzip detected by its magic bytes (never by its name).
 * Concatenated gzip members are read as one stream, as `zcat` does. `bufferBytes` sets the size
 * of the read and decompressed chunks: large for one big file, smaller where many files are read
 * at once (the external sort's merge reads ~160 runs for `.com`).
 */
export async function openDecompressed(
  file: string,
  { bufferBytes = GUNZIP_CHUNK_BYTES }: { bufferBytes?: number } = {},
): Promise<Readable> {
  let gzip: boolean;
  try {
    gzip = await isGzipFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ZoneError('zone_file_not_found', `File not found: ${file}`, { cause: error });
    }
    throw error;
  }
  const raw = createReadStream(file, { highWaterMark: 2 * bufferBytes });
  if (!gzip) return raw;
  // pipeline destroys the gunzip stream with any read error, so iterating it surfaces every failure.
  return pipeline(raw, createGunzip({ chunkSize: bufferBytes }), () => {});
}

/** Turns a zlib or file-system failure while reading `file` into a ZoneError a person can act on. */
export function describeReadFailure(error: unknown, file: string): unknown {
  if (error instanceof ZoneError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'Z_BUF_ERROR' || (error instanceof Error && /unexpected end of file/i.test(error.message))) {
    return new ZoneError('zone_file_truncated', `${file} is truncated: the gzip stream ends before its trailer.`, {
      cause: error,
    });
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    const reason = errorMessage(error);
    return new ZoneError('zone_file_corrupt', `${file} is not a valid gzip stream (${reason}).`, { cause: error });
  }
  return error;
}

/**
 * Splits a byte stream into lines, one array per chunk (yielding each line separately would cost
 * a generator round trip per line: ~160 M of them for .com). Bytes are decoded as latin1, which
 * maps every byte to one character, so odd bytes in TXT data never throw.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  let partial = '';
  for await (const chunk of chunks) {
    const lines = (partial + chunk.toString('latin1')).split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > MAX_LINE_BYTES) {
      throw new ZoneError(
        'zone_file_invalid',
        `A line is longer than ${MAX_LINE_BYTES} bytes: this is not a zone file.`,
      );
    }
    if (lines.length > 0) yield lines;
  }
  if (partial.length > 0) yield [partial];
}
