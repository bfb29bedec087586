import { type FileHandle, open } from 'node:fs/promises';
import {
  DEFAULT_BLOCK_SIZE,
  ENTRY_HEADER_BYTES,
  FORMAT_VERSION,
  type IndexMetadata,
  MAGIC,
  MAX_KEY_BYTES,
  TRAILER_BYTES,
  ZONE_LABEL,
  ZoneIndexFormatError,
} from './format.ts';

export interface WriteIndexOptions {
  tld: string;
  date: string;
  blockSize?: number;
  /** Stops the build (the partial file is the caller's to remove). */
  signal?: AbortSignal;
}

const OUTPUT_CHUNK_BYTES = 1 << 20;
/** How often (in names) a build looks at its abort signal. */
const ABORT_CHECK_INTERVAL = 65_536;

/**
 * Streams the sorted names of one snapshot (`example.com`, byte order, as the snapshot store
 * yields them) into an index file at `path`, which must not exist yet. Memory stays at one
 * output chunk plus the block directory, whatever the number of names. Refuses input that
 * is out of order, because a lookup could then miss a name that is there.
 */
export async function writeIndexFile(
  path: string,
  names: AsyncIterable<string> | Iterable<string>,
  options: WriteIndexOptions,
): Promise<IndexMetadata> {
  const blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
  if (blockSize < 2 * (ENTRY_HEADER_BYTES + MAX_KEY_BYTES)) {
    throw new RangeError(`block size ${blockSize} is too small for two keys`);
  }
  const suffix = `.${options.tld}`;
  const handle = await open(path, 'wx');
  try {
    const output = new ChunkedOutput(handle);
    const block = Buffer.alloc(blockSize);
    const blockLengths: number[] = [];
    const firstKeys: string[] = [];
    let blockUsed = 0;
    let previousKey = '';
    let nameCount = 0;
    let skipped = 0;

    const closeBlock = async () => {
      blockLengths.push(blockUsed);
      await output.write(block.subarray(0, blockUsed));
      blockUsed = 0;
    };

    options.signal?.throwIfAborted();
    let seen = 0;
    for await (const name of names) {
      if (++seen % ABORT_CHECK_INTERVAL === 0) options.signal?.throwIfAborted();
      const label = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
      if (!ZONE_LABEL.test(label)) {
        skipped++;
        continue;
      }
      const key = `${label}.`;
      if (key <= previousKey) {
        if (key === previousKey) continue;
        throw new ZoneIndexFormatError(
          `The ${options.tld} snapshot of ${options.date} is not sorted: "${name}" comes after "${previousKey}${options.tld}".`,
        );
      }
      let shared = blockUsed === 0 ? 0 : commonPrefixLength(previousKey, key);
      if (blockUsed + ENTRY_HEADER_BYTES + key.length - shared > blockSize) {
        await closeBlock();
        shared = 0;
      }
      if (blockUsed === 0) firstKeys.push(key);
      block[blockUsed] = shared;
      block[blockUsed + 1] = key.length - shared;
      blockUsed += ENTRY_HEADER_BYTES;
      blockUsed += block.write(key.slice(shared), blockUsed, 'latin1');
      previousKey = key;
      nameCount++;
    }
    if (blockUsed > 0) await closeBlock();

    const directoryOffset = output.bytesWritten;
    const directory = encodeDirectory(blockLengths, firstKeys);
    await output.write(directory);
    const metadata: IndexMetadata = {
      version: FORMAT_VERSION,
      tld: options.tld,
      date: options.date,
      names: nameCount,
      blocks: blockLengths.length,
      blockSize,
      directoryOffset,
      directoryLength: directory.length,
      skipped,
      builtAt: new Date().toISOString(),
    };
    const metadataBytes = Buffer.from(JSON.stringify(metadata), 'utf8');
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeUInt32LE(metadataBytes.length, 0);
    MAGIC.copy(trailer, 4);
    await output.write(metadataBytes);
    await output.write(trailer);
    await output.flush();
    await handle.sync();
    return metadata;
  } finally {
    await handle.close();
  }
}

function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function encodeDirectory(blockLengths: number[], firstKeys: string[]): Buffer {
  let keyBytes = 0;
  for (const key of firstKeys) keyBytes += 1 + key.length;
  const directory = Buffer.alloc(4 * blockLengths.length + keyBytes);
  let position = 0;
  for (const length of blockLengths) position = directory.writeUInt32LE(length, position);
  for (const key of firstKeys) {
    directory[position++] = key.length;
    position += directory.write(key, position, 'latin1');
  }
  return directory;
}

/** Collects small writes into 1 MiB chunks so a build makes a few hundred syscalls, not millions. */
class ChunkedOutput {
  readonly #handle: FileHandle;
  readonly #chunk = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
  #used = 0;
  bytesWritten = 0;

  constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  async write(bytes: Buffer): Promise<void> {
    if (this.#used + bytes.length > this.#chunk.length) await this.flush();
    if (bytes.length > this.#chunk.length) {
      await this.#handle.write(bytes);
    } else {
      bytes.copy(this.#chunk, this.#used);
      this.#used += bytes.length;
    }
    this.bytesWritten += bytes.length;
  }

  async flush(): Promise<void> {
    if (this.#used === 0) return;
    await this.#handle.write(this.#chunk, 0, this.#used);
    this.#used = 0;
  }
}
