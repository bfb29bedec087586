import { createHash, randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { mapFile } from '@repo/mapped-file';

/**
 * A tree of plain data (objects, arrays, numbers, strings, booleans, null) whose leaves include
 * typed arrays, as one file that is read back **mapped** (@repo/mapped-file): every typed array a
 * view over the one read-only mapping, nothing copied, so processes mapping the same file share its
 * memory. Generic over the tree: whatever typed arrays a structure holds are written and read with
 * no code of their own.
 *
 * Layout: a 48-byte prelude (MAGIC, the format version, the header's length, the SHA-256 of the
 * header), the header as JSON (the tree with each typed array replaced by its kind, offset and
 * length; the file's total length; the kind of content and its metadata), then each typed array's
 * bytes, 8-byte aligned. Written to a temporary name, flushed and renamed, so a reader sees the
 * whole file or none; a file that is not one, of another format version or kind, with a damaged
 * header or shorter or longer than its header says is refused with a TypedArrayFileError, never
 * read as garbage.
 */
const MAGIC = Buffer.from('TYPEDARR', 'latin1');
export const TYPED_ARRAY_FILE_FORMAT = 1;
const PRELUDE = 48;
const ALIGN = 8;
/** One write call's most bytes (a single write is limited to 2 GB). */
const WRITE_CHUNK = 64 * 1024 * 1024;

const ARRAY_KINDS = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
} as const;
type ArrayKind = keyof typeof ARRAY_KINDS;
type AnyTypedArray = InstanceType<(typeof ARRAY_KINDS)[ArrayKind]>;

/** A node of the header's tree: JSON as it is, but objects, typed arrays and non-finite numbers tagged. */
type Node =
  | null
  | boolean
  | string
  | number
  | Node[]
  | { object: Record<string, Node> }
  | { array: ArrayKind; offset: number; length: number }
  | { number: 'NaN' | 'Infinity' | '-Infinity' };

interface Header {
  kind: string;
  bytes: number;
  meta: unknown;
  tree: Node;
}

export type TypedArrayFileProblem =
  | 'not-this-format'
  | 'format-version'
  | 'header-checksum'
  | 'length'
  | 'kind'
  | 'malformed';

/** Why a file was refused (`problem`), with the file's path in the message. */
export class TypedArrayFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: TypedArrayFileProblem,
    detail: string,
  ) {
    super(`${file} is not a usable ${detail}`);
    this.name = 'TypedArrayFileError';
  }
}

const aligned = (offset: number) => Math.ceil(offset / ALIGN) * ALIGN;

/**
 * Writes `tree` (plain data and typed arrays) with `meta` (JSON) as a file of `kind` at `file`,
 * atomically (a temporary file beside it, flushed, renamed over `file`). Asynchronous writes: the
 * calling thread is not held while hundreds of megabytes go to disk.
 */
export async function writeTypedArrayFile(file: string, kind: string, meta: unknown, tree: unknown): Promise<void> {
  const arrays: Array<{ array: AnyTypedArray; offset: number }> = [];
  let dataBytes = 0;
  const encode = (value: unknown, at: string): Node => {
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') {
      return Number.isFinite(value) ? value : { number: String(value) as 'NaN' | 'Infinity' | '-Infinity' };
    }
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      const array = kindOf(value, at);
      const offset = aligned(dataBytes);
      dataBytes = offset + value.byteLength;
      arrays.push({ array: value as AnyTypedArray, offset });
      return { array, offset, length: (value as AnyTypedArray).length };
    }
    if (Array.isArray(value)) return value.map((item, i) => encode(item, `${at}[${i}]`));
    if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const object: Record<string, Node> = {};
      for (const [key, item] of Object.entries(value))
        if (item !== undefined) object[key] = encode(item, `${at}.${key}`);
      return { object };
    }
    throw new TypeError(`${at}: a ${describe(value)} cannot be written to a typed-array file (plain data only)`);
  };
  const encodedTree = encode(tree, 'tree');
  // The header holds the file's length, which depends on the header's own length: fix it in two passes.
  let header = Buffer.alloc(0);
  let bytes = -1;
  while (bytes !== aligned(PRELUDE + header.length) + dataBytes) {
    bytes = aligned(PRELUDE + header.length) + dataBytes;
    header = Buffer.from(JSON.stringify({ kind, bytes, meta, tree: encodedTree } satisfies Header));
  }
  const prelude = Buffer.alloc(PRELUDE);
  MAGIC.copy(prelude, 0);
  prelude.writeUInt32LE(TYPED_ARRAY_FILE_FORMAT, 8);
  prelude.writeUInt32LE(header.length, 12);
  createHash('sha256').update(header).digest().copy(prelude, 16);

  const temporary = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const handle = await open(temporary, 'wx');
  try {
    let position = 0;
    const write = async (chunk: Uint8Array) => {
      for (let done = 0; done < chunk.length; ) {
        const part = chunk.subarray(done, done + WRITE_CHUNK);
        const { bytesWritten } = await handle.write(part, 0, part.length, position);
        done += bytesWritten;
        position += bytesWritten;
      }
    };
    await write(prelude);
    await write(header);
    const dataStart = aligned(PRELUDE + header.length);
    for (const { array, offset } of arrays) {
      if (dataStart + offset > position) await write(new Uint8Array(dataStart + offset - position));
      await write(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    }
    if (position < bytes) await write(new Uint8Array(bytes - position));
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
}

/**
 * The tree and meta of the file at `file` (of `kind`), every typed array a read-only view over one
 * shared mapping of the file: never write to them (a write kills the process).
 * Throws a TypedArrayFileError for a file that is not a whole typed-array file of `kind`, and the
 * fs error (ENOENT …) when it cannot be opened.
 */
export function mapTypedArrayFile(file: string, kind: string): { meta: unknown; tree: unknown } {
  const buffer = mapFile(file);
  const bytes = Buffer.from(buffer);
  const refuse = (problem: TypedArrayFileProblem, detail: string): never => {
    throw new TypedArrayFileError(file, problem, `${kind} file: ${detail}`);
  };
  if (bytes.length < PRELUDE || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    refuse('not-this-format', 'it does not start as a typed-array file');
  }
  const format = bytes.readUInt32LE(8);
  if (format !== TYPED_ARRAY_FILE_FORMAT) {
    refuse('format-version', `format version ${format}, this code reads ${TYPED_ARRAY_FILE_FORMAT}`);
  }
  const headerLength = bytes.readUInt32LE(12);
  if (PRELUDE + headerLength > bytes.length) refuse('length', 'the file ends inside its header');
  const headerBytes = bytes.subarray(PRELUDE, PRELUDE + headerLength);
  if (!createHash('sha256').update(headerBytes).digest().equals(bytes.subarray(16, 48))) {
    refuse('header-checksum', 'its header does not match its checksum');
  }
  let header: Header;
  try {
    header = JSON.parse(headerBytes.toString('utf8')) as Header;
  } catch {
    return refuse('malformed', 'its header is not JSON');
  }
  if (header.kind !== kind) refuse('kind', `it holds ${JSON.stringify(header.kind)}`);
  if (header.bytes !== bytes.length) {
    refuse('length', `${bytes.length} bytes where its header says ${header.bytes} (cut short or appended to)`);
  }
  const dataStart = aligned(PRELUDE + headerLength);
  const decode = (node: Node): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(decode);
    if ('object' in node) {
      const object: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node.object)) object[key] = decode(item);
      return object;
    }
    if ('number' in node) return Number(node.number);
    const Type = ARRAY_KINDS[node.array];
    const start = dataStart + node.offset;
    if (
      !Type ||
      node.offset % ALIGN !== 0 ||
      !Number.isSafeInteger(node.length) ||
      node.length < 0 ||
      start + node.length * Type.BYTES_PER_ELEMENT > bytes.length
    ) {
      return refuse('malformed', `an array (${JSON.stringify(node)}) lies outside the file`);
    }
    return new Type(buffer, start, node.length);
  };
  return { meta: header.meta, tree: decode(header.tree) };
}

function kindOf(value: ArrayBufferView, at: string): ArrayKind {
  for (const [name, Type] of Object.entries(ARRAY_KINDS)) if (value instanceof Type) return name as ArrayKind;
  throw new TypeError(`${at}: a ${describe(value)} cannot be written to a typed-array file`);
}

const describe = (value: unknown) =>
  value === undefined ? 'undefined' : ((value as object).constructor?.name ?? typeof value);
