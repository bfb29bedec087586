import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A multipart/form-data body as api.php receives it from an app. */
export async function multipartBody(
  fields: Record<string, string>,
  file?: { field?: string; name: string; type: string; data: Buffer },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field ?? 'photo', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const request = new Request('http://upload.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

export const solidJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2a7ab0' } })
    .jpeg()
    .toBuffer();

/** A JPEG stored `width`×`height` whose EXIF says "rotate 90° clockwise to display". */
export const rotatedJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#b04020' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'secret-photographer' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A small file claiming a `side`×`side` grey PNG: a decompression bomb's header. Its one
 * IDAT holds the first rows only; a decoder that trusted the header would allocate it all.
 */
export function pngBomb(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = deflateSync(Buffer.alloc((side + 1) * 64));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
