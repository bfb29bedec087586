/**
 * The on-disk form of one TLD's zone index (`<tld>.<date>.zidx`):
 *
 *   [block 0][block 1]…[block n-1][block directory][metadata JSON][u32 metadata length]["ZIDX0001"]
 *
 * A key is a second-level label followed by `.` (`example.` for `example.com`). Keeping the
 * dot makes byte order of keys equal to byte order of the full names in a snapshot (`a-b.com`
 * sorts before `a.com` because `-` < `.`), so a snapshot streams straight in without re-sorting.
 *
 * A block holds whole entries, front-coded against the previous key of the same block:
 * `[shared prefix length: u8][suffix length: u8][suffix bytes]`. The first entry of a block
 * shares nothing, so any block decodes on its own. Labels are at most 63 bytes, so both
 * lengths fit a byte.
 *
 * The block directory lists, per block, its byte length (u32 LE) and then its first key
 * (`[length: u8][bytes]`). Only the directory is held in memory: about 10 MB for `.com`.
 */
export const MAGIC = Buffer.from('ZIDX0001', 'latin1');
export const FORMAT_VERSION = 1;
export const TRAILER_BYTES = MAGIC.length + 4;
export const FILE_EXTENSION = '.zidx';
/** One block per 4 KiB page: a lookup reads exactly one page. */
export const DEFAULT_BLOCK_SIZE = 4096;
export const MAX_KEY_BYTES = 64;
export const ENTRY_HEADER_BYTES = 2;
/** A second-level label as it can appear in a zone: ASCII letters, digits, hyphens. */
export const ZONE_LABEL = /^[a-z0-9-]{1,63}$/;

export interface IndexMetadata {
  version: number;
  tld: string;
  /** Snapshot date (YYYY-MM-DD) the index was built from. */
  date: string;
  names: number;
  blocks: number;
  blockSize: number;
  /** Byte offset of the block directory. */
  directoryOffset: number;
  directoryLength: number;
  /** Names of the snapshot that are not second-level LDH names and so can never be asked for. */
  skipped: number;
  builtAt: string;
}

export class ZoneIndexFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZoneIndexFormatError';
  }
}

/** `<tld>.<date>.zidx`; the TLD may itself hold no dot (only single-label TLDs are indexed). */
export const indexFileName = (tld: string, date: string) => `${tld}.${date}${FILE_EXTENSION}`;

const FILE_NAME = /^([a-z0-9-]+|xn--[a-z0-9-]+)\.(\d{4}-\d{2}-\d{2})\.zidx$/;

export function parseIndexFileName(fileName: string): { tld: string; date: string } | null {
  const match = FILE_NAME.exec(fileName);
  return match ? { tld: match[1]!, date: match[2]! } : null;
}

/** The key of a label: its bytes and the terminating dot. */
export function keyOf(label: string): Buffer {
  return Buffer.from(`${label}.`, 'latin1');
}
