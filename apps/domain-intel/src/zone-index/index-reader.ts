import { type FileHandle, open } from 'node:fs/promises';
import type { BlockCache } from './block-cache.ts';
import {
  FORMAT_VERSION,
  type IndexMetadata,
  keyOf,
  MAGIC,
  TRAILER_BYTES,
  ZONE_LABEL,
  ZoneIndexFormatError,
} from './format.ts';

let nextFileId = 1;

/**
 * One TLD's index file opened for lookups. Memory: the block directory only (first key and
 * offset of each block). A lookup binary-searches the directory, then decodes one block,
 * from the shared cache or with one positioned read.
 */
export class IndexFile {
  readonly metadata: IndexMetadata;
  readonly path: string;
  readonly #id = nextFileId++;
  readonly #handle: FileHandle;
  readonly #cache: BlockCache;
  /** First keys of all blocks, back to back; key i spans keyStarts[i]..keyStarts[i+1]. */
  readonly #firstKeys: Buffer;
  readonly #keyStarts: Uint32Array;
  /** Byte offset of block i; blockOffsets[blocks] is the end of the last block. */
  readonly #blockOffsets: Float64Array;
  #pendingReads = 0;
  #retired: (() => void) | undefined;

  private constructor(path: string, handle: FileHandle, cache: BlockCache, metadata: IndexMetadata, directory: Buffer) {
    this.path = path;
    this.#handle = handle;
    this.#cache = cache;
    this.metadata = metadata;
    const blocks = metadata.blocks;
    this.#blockOffsets = new Float64Array(blocks + 1);
    for (let i = 0; i < blocks; i++) this.#blockOffsets[i + 1] = this.#blockOffsets[i]! + directory.readUInt32LE(4 * i);
    if (directory.length < 5 * blocks) throw new ZoneIndexFormatError(`${path}: the block directory is truncated.`);
    // Directory keys carry a length byte each; in memory they sit back to back, found by start offsets.
    this.#keyStarts = new Uint32Array(blocks + 1);
    this.#firstKeys = Buffer.allocUnsafeSlow(directory.length - 5 * blocks);
    let position = 4 * blocks;
    for (let i = 0; i < blocks; i++) {
      const length = directory[position]!;
      directory.copy(this.#firstKeys, this.#keyStarts[i]!, position + 1, position + 1 + length);
      this.#keyStarts[i + 1] = this.#keyStarts[i]! + length;
      position += 1 + length;
    }
    if (position !== directory.length) throw new ZoneIndexFormatError(`${path}: the block directory is damaged.`);
    if (this.#blockOffsets[blocks] !== metadata.directoryOffset) {
      throw new ZoneIndexFormatError(`${path}: the block directory does not match the data section.`);
    }
  }

  /** Opens and validates an index file; throws ZoneIndexFormatError when it is damaged. */
  static async open(path: string, cache: BlockCache): Promise<IndexFile> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size < TRAILER_BYTES) throw new ZoneIndexFormatError(`${path} is too short to be a zone index.`);
      const trailer = await readExactly(handle, size - TRAILER_BYTES, TRAILER_BYTES);
      if (!trailer.subarray(4).equals(MAGIC)) throw new ZoneIndexFormatError(`${path} is not a zone index.`);
      const metadataLength = trailer.readUInt32LE(0);
      const metadataOffset = size - TRAILER_BYTES - metadataLength;
      if (metadataOffset < 0) throw new ZoneIndexFormatError(`${path}: metadata length is out of range.`);
      const metadata = parseMetadata(path, await readExactly(handle, metadataOffset, metadataLength));
      if (metadata.directoryOffset + metadata.directoryLength !== metadataOffset) {
        throw new ZoneIndexFormatError(`${path}: sections do not line up (truncated or damaged file).`);
      }
      const directory = await readExactly(handle, metadata.directoryOffset, metadata.directoryLength);
      return new IndexFile(path, handle, cache, metadata, directory);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes this file keeps in memory (the block directory); cached blocks are counted by the cache. */
  get residentBytes(): number {
    return this.#firstKeys.length + this.#keyStarts.byteLength + this.#blockOffsets.byteLength;
  }

  /** Whether `label` (ASCII, no dot, e.g. `example`) is in this TLD's snapshot. Exact. */
  async has(label: string): Promise<boolean> {
    // Anything else cannot be in a zone, and would not survive the one-byte-per-character key encoding.
    if (!ZONE_LABEL.test(label) || this.metadata.blocks === 0) return false;
    const key = keyOf(label);
    const block = this.#blockFor(key);
    if (block === true) return true;
    if (block < 0) return false;
    return blockContains(await this.#readBlock(block), key);
  }

  /** The block whose first key is the greatest one <= key; true when a first key is the key. */
  #blockFor(key: Buffer): number | true {
    let low = 0;
    let high = this.metadata.blocks - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = key.compare(this.#firstKeys, this.#keyStarts[middle]!, this.#keyStarts[middle + 1]!);
      if (order === 0) return true;
      if (order > 0) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  #readBlock(block: number): Promise<Buffer> {
    return this.#cache.get(this.#id, { block, read: (index) => this.#readFromDisk(index) });
  }

  async #readFromDisk(block: number): Promise<Buffer> {
    this.#pendingReads++;
    try {
      const start = this.#blockOffsets[block]!;
      return await readExactly(this.#handle, start, this.#blockOffsets[block + 1]! - start);
    } finally {
      this.#pendingReads--;
      if (this.#pendingReads === 0) this.#retired?.();
    }
  }

  /** Closes the file once reads in flight have finished; lookups after this must not be made. */
  async close(): Promise<void> {
    if (this.#pendingReads > 0) await new Promise<void>((resolve) => (this.#retired = resolve));
    this.#cache.forget(this.#id);
    await this.#handle.close();
  }
}

/**
 * Scans one front-coded block for `key` without rebuilding keys. `matched` is how many
 * leading bytes the previous entry shared with the key; since entries ascend, an entry
 * sharing more with its predecessor is still below the key, and one sharing less is above it.
 */
export function blockContains(block: Buffer, key: Buffer): boolean {
  let position = 0;
  let matched = 0;
  while (position < block.length) {
    const shared = block[position]!;
    const suffixLength = block[position + 1]!;
    const suffixStart = position + 2;
    position = suffixStart + suffixLength;
    if (shared < matched) return false;
    if (shared > matched) continue;
    let i = 0;
    while (i < suffixLength && matched + i < key.length && block[suffixStart + i] === key[matched + i]) i++;
    if (matched + i === key.length) return i === suffixLength;
    if (i < suffixLength && block[suffixStart + i]! > key[matched + i]!) return false;
    matched += i;
  }
  return false;
}

async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafeSlow(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZoneIndexFormatError('Unexpected end of the zone index file.');
  return buffer;
}

function parseMetadata(path: string, bytes: Buffer): IndexMetadata {
  let metadata: IndexMetadata;
  try {
    metadata = JSON.parse(bytes.toString('utf8')) as IndexMetadata;
  } catch {
    throw new ZoneIndexFormatError(`${path}: metadata is not JSON.`);
  }
  if (metadata.version !== FORMAT_VERSION) {
    throw new ZoneIndexFormatError(`${path}: format version ${metadata.version}, expected ${FORMAT_VERSION}.`);
  }
  for (const field of ['names', 'blocks', 'directoryOffset', 'directoryLength'] as const) {
    if (!Number.isSafeInteger(metadata[field]) || metadata[field] < 0) {
      throw new ZoneIndexFormatError(`${path}: metadata field ${field} is invalid.`);
    }
  }
  return metadata;
}
