import type { NameBatch } from './name-batch.ts';

/**
 * Daily zone snapshots: per TLD and UTC date, the sorted (byte order, as `LC_ALL=C sort`),
 * de-duplicated list of second-level names delegated in that zone, as full lowercase ASCII
 * names without the trailing dot (`example.com`). Implemented by the zones work; read by the
 * lifecycle, alt-TLD demand, the zone index and Enterprise snapshot downloads.
 */
export interface SnapshotStore {
  /** Dates (YYYY-MM-DD) held for a TLD, oldest first. */
  dates(tld: string): Promise<string[]>;
  latestDate(tld: string): Promise<string | null>;
  /** Streams the names of one snapshot in sorted order. */
  read(tld: string, date: string): AsyncIterable<string>;
}

/** A snapshot written to a temporary file, not yet visible to readers. */
export interface StagedSnapshot {
  tld: string;
  date: string;
  names: number;
  /** Compressed size on disk. */
  bytes: number;
  /** Publishes it atomically (rename); replaces nothing half-written, ever. */
  commit(): Promise<void>;
  /** Deletes the temporary file. */
  discard(): Promise<void>;
}

/** The store the zones module writes; readers only need `SnapshotStore`. */
export interface WritableSnapshotStore extends SnapshotStore {
  has(tld: string, date: string): Promise<boolean>;
  /** The snapshot as newline-terminated bytes in sorted order, for byte-level merging. */
  readChunks(tld: string, date: string): AsyncIterable<Buffer>;
  /** Writes sorted, distinct names (in batches, strings or packed) to a staged snapshot; refuses unsorted input. */
  stage(tld: string, date: string, sortedNames: AsyncIterable<readonly string[] | NameBatch>): Promise<StagedSnapshot>;
  /** Names in a committed snapshot (streams it) and its compressed size. */
  measure(tld: string, date: string): Promise<{ names: number; bytes: number }>;
}
