import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { FeedIndex, type FeedIndexOptions, type FeedIndexSnapshotMeta } from '@repo/feed-index';
import type { Config } from '../config.ts';

/** A snapshot's name: the key of what shaped it (feed-index-store below), then its feed version. */
const SNAPSHOT_NAME = /^feed-index-([0-9a-f]{12})-v(\d+)\.snapshot$/;
const LOCK = 'build.lock';
/** A lock file without a process id (its writer died between creating and writing it) is stale after this. */
const UNREADABLE_LOCK_MS = 60_000;

/** What shapes a snapshot's content: processes share one only when all of it is the same. */
export interface FeedIndexStoreSettings {
  /** The database the rows come from (its location, e.g. the SQLite file or the PostgreSQL URL without password and schema). */
  database: string;
  /** FEED_INDEX_RETENTION_DAYS. */
  retentionDays: number;
  /** FEED_INDEX_MAX_ROWS. */
  maxRows: number;
  /** FEED_INDEX_MAX_MB. */
  maxMb: number;
}

/**
 * The directory of feed index snapshots shared by the API processes of one host (FEED_INDEX_DIR):
 * one file per feed version, mapped read-only by every process (one copy of the index per host,
 * in the page cache), built by whichever process takes the build lock first.
 *
 * Files are named by a key of their settings (the database, retention, row and MB ceilings: processes with
 * other settings keep snapshots of their own) and their feed version. A file is only ever written
 * under a temporary name and renamed into place, and older versions are unlinked once a newer one
 * is there: a process still mapping one keeps reading it (Linux keeps an unlinked file's pages
 * while they are mapped), and its memory goes with its last mapping.
 */
export class FeedIndexStore {
  readonly #key: string;
  #locked = false;

  constructor(
    readonly directory: string,
    readonly settings: FeedIndexStoreSettings,
  ) {
    this.#key = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12);
  }

  /** The snapshot file of a feed version (whether or not it exists). */
  fileOf(version: number): string {
    return path.join(this.directory, `feed-index-${this.#key}-v${version}.snapshot`);
  }

  /** The highest feed version with a snapshot of these settings; null when there is none. */
  newestVersion(): number | null {
    let newest: number | null = null;
    for (const { key, version } of this.#snapshots()) {
      if (key === this.#key && (newest === null || version > newest)) newest = version;
    }
    return newest;
  }

  /**
   * The index of a feed version from its snapshot, mapped; null when there is none. Throws a
   * TypedArrayFileError for a file that is not a whole snapshot (the caller builds instead).
   */
  map(version: number, options: Omit<FeedIndexOptions, 'droppedSince'>): FeedIndex | null {
    try {
      return FeedIndex.fromSnapshot(this.fileOf(version), options).index;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /**
   * Takes the host's build lock: a file created exclusively (O_EXCL) holding this process's id.
   * A lock whose process is gone (killed mid-build) is stale and taken over. False when another
   * live process holds it (it builds; this one waits for its snapshot). Two processes taking over
   * one stale lock at the same moment may both build: the same file results, renamed twice.
   */
  tryLock(): boolean {
    if (this.#locked) return true;
    mkdirSync(this.directory, { recursive: true });
    const lock = path.join(this.directory, LOCK);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(lock, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        this.#locked = true;
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (!lockIsStale(lock)) return false;
      rmSync(lock, { force: true });
    }
    return false;
  }

  /** Releases the build lock if this process holds it. */
  unlock(): void {
    if (!this.#locked) return;
    this.#locked = false;
    rmSync(path.join(this.directory, LOCK), { force: true });
  }

  /** Whether this process holds the host's build lock (it then writes the snapshot of what it builds). */
  get locked(): boolean {
    return this.#locked;
  }

  /** The settings a snapshot of this store records (FeedIndex.buildSnapshot), as they were when it was built. */
  snapshotSettings(): FeedIndexSnapshotMeta['settings'] {
    const { retentionDays, maxRows, maxMb } = this.settings;
    return { key: this.#key, retentionDays, maxRows, maxMb };
  }

  /**
   * After the snapshot of `version` is in place (under the build lock): unlinks every older version's
   * snapshot and what an interrupted write left (temporary files: only the lock's holder writes, so
   * none is in progress).
   */
  prune(version: number): void {
    for (const snapshot of this.#snapshots()) {
      if (snapshot.version < version) rmSync(path.join(this.directory, snapshot.name), { force: true });
    }
    for (const name of readdirSync(this.directory)) {
      if (name.endsWith('.tmp')) rmSync(path.join(this.directory, name), { force: true });
    }
  }

  #snapshots(): Array<{ name: string; key: string; version: number }> {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.flatMap((name) => {
      const match = SNAPSHOT_NAME.exec(name);
      return match ? [{ name, key: match[1]!, version: Number(match[2]) }] : [];
    });
  }
}

/** The store of FEED_INDEX_DIR (default DATA_DIR/feed-index); undefined when it is empty or the index is off. */
export function feedIndexStoreOf(config: Config, databaseLocation: string): FeedIndexStore | undefined {
  if (config.FEED_INDEX === 'off' || config.FEED_INDEX_DIR === '') return undefined;
  return new FeedIndexStore(config.FEED_INDEX_DIR ?? path.join(config.DATA_DIR, 'feed-index'), {
    database: databaseLocation,
    retentionDays: config.FEED_INDEX_RETENTION_DAYS,
    maxRows: config.FEED_INDEX_MAX_ROWS,
    maxMb: config.FEED_INDEX_MAX_MB,
  });
}

/** Whether the lock's holder is gone: its process id names no live process (or it has none and is old). */
function lockIsStale(lock: string): boolean {
  let text: string;
  try {
    text = readFileSync(lock, 'utf8');
  } catch {
    return false; // released meanwhile: the next attempt takes it
  }
  const pid = Number.parseInt(text, 10);
  if (Number.isNaN(pid)) {
    try {
      return Date.now() - statSync(lock).mtimeMs > UNREADABLE_LOCK_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}
