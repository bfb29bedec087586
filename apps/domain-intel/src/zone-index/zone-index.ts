import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage, isTemporaryName, sweepTemporaryFiles, temporaryPath } from '@repo/server-kit';
import type { ZonePresence } from '../availability/zone-presence.ts';
import type { SnapshotStore } from '../zones/snapshot-store.ts';
import { BlockCache } from './block-cache.ts';
import { indexFileName, parseIndexFileName, ZoneIndexFormatError } from './format.ts';
import { IndexFile } from './index-reader.ts';
import { writeIndexFile } from './index-writer.ts';

export interface ZoneIndexOptions {
  /** Where index files live (persisted across restarts). */
  directory: string;
  /** The tracked TLDs: single labels, e.g. `com`. */
  tlds: readonly string[];
  snapshots: SnapshotStore;
  /** Memory budget for cached index blocks, shared by every TLD. */
  cacheBytes: number;
  blockSize?: number;
}

export type RefreshStatus = 'built' | 'current' | 'no_snapshot' | 'failed';

export interface RefreshOutcome {
  tld: string;
  status: RefreshStatus;
  /** Snapshot date the index now serves (null: none). */
  date: string | null;
  names: number | null;
  error?: string;
}

export interface IndexedTld {
  tld: string;
  date: string;
  names: number;
  blocks: number;
  bytesOnDisk: number;
}

const SINGLE_LABEL_TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The exact zone index: for each tracked TLD, an on-disk index of its latest snapshot's names
 * (see format.ts), answering "is this name in the zone?" with no false positives or
 * negatives. Built from the snapshot store by `refresh()`, kept under `directory`, and simply
 * re-opened after a restart.
 */
export class ZoneIndex implements ZonePresence {
  readonly #options: ZoneIndexOptions;
  readonly #cache: BlockCache;
  readonly #files = new Map<string, IndexFile>();
  #refreshChain: Promise<unknown> = Promise.resolve();
  /** Aborts a build in progress on close, so shutting down never waits for a `.com`-sized build. */
  readonly #shutdown = new AbortController();
  #watchTimer: NodeJS.Timeout | undefined;

  private constructor(options: ZoneIndexOptions) {
    for (const tld of options.tlds) {
      if (!SINGLE_LABEL_TLD.test(tld))
        throw new RangeError(`"${tld}" is not a single-label TLD the zone index can hold.`);
    }
    this.#options = options;
    this.#cache = new BlockCache(options.cacheBytes);
  }

  /** Opens the indexes persisted under `directory` (no rebuild); call `refresh()` to catch up with new snapshots. */
  static async open(options: ZoneIndexOptions): Promise<ZoneIndex> {
    const index = new ZoneIndex(options);
    await index.#loadPersisted();
    return index;
  }

  /** TLDs with an index in service (tracked TLDs whose snapshot has been indexed). */
  indexedTlds(): string[] {
    return [...this.#files.keys()];
  }

  async isInZone(name: string): Promise<boolean | null> {
    const domain = name.toLowerCase();
    const dot = domain.lastIndexOf('.');
    if (dot <= 0) return null;
    const label = domain.slice(0, dot);
    if (label.includes('.')) return null;
    return this.has(domain.slice(dot + 1), label);
  }

  /** Whether `label` is in the latest snapshot of `tld`; null when that TLD has no index. */
  async has(tld: string, label: string): Promise<boolean | null> {
    const file = this.#files.get(tld);
    return file ? file.has(label) : null;
  }

  /** The indexed TLDs in whose latest snapshot `label` is registered (the alt-TLD demand signal). */
  async tldsWithLabel(label: string): Promise<string[]> {
    const entries = [...this.#files.entries()];
    const present = await Promise.all(entries.map(([, file]) => file.has(label)));
    return entries.filter((_, i) => present[i]).map(([tld]) => tld);
  }

  status(): IndexedTld[] {
    return [...this.#files.entries()].map(([tld, file]) => ({
      tld,
      date: file.metadata.date,
      names: file.metadata.names,
      blocks: file.metadata.blocks,
      bytesOnDisk: file.metadata.directoryOffset + file.metadata.directoryLength,
    }));
  }

  /**
   * Brings every tracked TLD to its latest snapshot: builds the index of a newer snapshot
   * beside the one in service, then swaps it in; lookups never see a half-built index.
   * Calls are serialised (a call during a run starts after it). Throws an AggregateError
   * after trying every TLD if any failed; the old index of a failed TLD stays in service.
   */
  refresh(): Promise<RefreshOutcome[]> {
    const run = this.#refreshChain.then(() => this.#refreshAll());
    this.#refreshChain = run.catch(() => undefined);
    return run;
  }

  /**
   * Keeps this process's index current on its own: refreshes now, then every `intervalMs`
   * (a run with nothing new costs one `latestDate` per TLD). Needed in every serving process,
   * because the daily job may run in another one (a BullMQ worker). Failures go to `onError`.
   */
  watch(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.#watchTimer || intervalMs <= 0 || this.#shutdown.signal.aborted) return;
    const run = () => {
      this.refresh().catch(onError);
    };
    this.#watchTimer = setInterval(run, intervalMs).unref();
    run();
  }

  async close(): Promise<void> {
    clearInterval(this.#watchTimer);
    this.#shutdown.abort();
    await this.#refreshChain;
    const files = [...this.#files.values()];
    this.#files.clear();
    await Promise.all(files.map((file) => file.close()));
  }

  async #refreshAll(): Promise<RefreshOutcome[]> {
    const outcomes: RefreshOutcome[] = [];
    for (const tld of this.#options.tlds) {
      if (this.#shutdown.signal.aborted) break;
      outcomes.push(await this.#refreshTld(tld));
    }
    const failures = outcomes.filter((outcome) => outcome.status === 'failed');
    if (failures.length > 0) {
      throw new AggregateError(
        failures.map((failure) => new Error(`${failure.tld}: ${failure.error}`)),
        `Zone index refresh failed: ${failures.map((failure) => `${failure.tld}: ${failure.error}`).join('; ')}`,
      );
    }
    return outcomes;
  }

  async #refreshTld(tld: string): Promise<RefreshOutcome> {
    const current = this.#files.get(tld);
    const served = (status: RefreshStatus, error?: string): RefreshOutcome => {
      const file = this.#files.get(tld);
      return { tld, status, date: file?.metadata.date ?? null, names: file?.metadata.names ?? null, error };
    };
    try {
      const date = await this.#options.snapshots.latestDate(tld);
      if (date === null) return served('no_snapshot');
      if (current?.metadata.date === date) return served('current');
      const finalPath = path.join(this.#options.directory, indexFileName(tld, date));
      const existing = await this.#openBuilt(finalPath);
      await this.#install(tld, existing ?? (await this.#build(tld, date, finalPath)));
      return served('built');
    } catch (error) {
      return served('failed', errorMessage(error));
    }
  }

  /** An index another instance sharing the directory already built; a damaged leftover is removed and rebuilt. */
  async #openBuilt(file: string): Promise<IndexFile | null> {
    try {
      return await IndexFile.open(file, this.#cache);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      if (!(error instanceof ZoneIndexFormatError)) throw error;
      await rm(file, { force: true });
      return null;
    }
  }

  /** Writes beside the final path and renames, so a crash never leaves a half-written index in place. */
  async #build(tld: string, date: string, finalPath: string): Promise<IndexFile> {
    const temporary = temporaryPath(path.dirname(finalPath), path.basename(finalPath));
    try {
      await writeIndexFile(temporary, this.#options.snapshots.read(tld, date), {
        tld,
        date,
        blockSize: this.#options.blockSize,
        signal: this.#shutdown.signal,
      });
      await rename(temporary, finalPath);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return IndexFile.open(finalPath, this.#cache);
  }

  async #install(tld: string, file: IndexFile): Promise<void> {
    const previous = this.#files.get(tld);
    this.#files.set(tld, file);
    if (previous && previous.path !== file.path) {
      await previous.close();
      await rm(previous.path, { force: true });
    }
  }

  async #loadPersisted(): Promise<void> {
    const directory = this.#options.directory;
    await mkdir(directory, { recursive: true });
    // Half-built indexes of a crashed build go; those of a build still running elsewhere stay.
    await sweepTemporaryFiles(directory);
    const byTld = new Map<string, string[]>();
    for (const name of await readdir(directory)) {
      if (isTemporaryName(name)) continue;
      const parsed = parseIndexFileName(name);
      if (!parsed || !this.#options.tlds.includes(parsed.tld)) continue;
      byTld.set(parsed.tld, [...(byTld.get(parsed.tld) ?? []), parsed.date]);
    }
    for (const [tld, dates] of byTld) {
      dates.sort().reverse();
      for (const date of dates) {
        const file = path.join(directory, indexFileName(tld, date));
        if (this.#files.has(tld)) {
          await rm(file, { force: true });
          continue;
        }
        try {
          this.#files.set(tld, await IndexFile.open(file, this.#cache));
        } catch {
          // A damaged file (e.g. a disk filled up mid-copy) is rebuilt by the next refresh.
          await rm(file, { force: true });
        }
      }
    }
  }
}
