import { stat } from 'node:fs/promises';
import type { Clock } from '@repo/server-kit';
import { ZoneError } from './errors.ts';
import { sortUnique } from './external-sort.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { WritableSnapshotStore } from './snapshot-store.ts';
import { assertSnapshotDate, normalizeTld } from './validation.ts';
import type { SnapshotSource, ZoneCatalog } from './zone-catalog.ts';
import { readZoneFile } from './zone-reader.ts';

export interface ZoneImportRequest {
  tld: string;
  /** A master file, gzip or plain (detected by its magic bytes). */
  file: string;
  /** UTC date of the snapshot, YYYY-MM-DD. */
  date: string;
  source?: SnapshotSource;
}

export interface ZoneImportResult {
  tld: string;
  date: string;
  /** Distinct delegated names in the snapshot. */
  names: number;
  status: 'imported' | 'already_imported';
}

export interface ZoneImporterOptions {
  store: WritableSnapshotStore;
  catalog: ZoneCatalog;
  clock: Clock;
  /** Where the external sort spills its runs. */
  tempDir: string;
  sortChunkNames: number;
  /** Largest fraction of names a zone may lose from one snapshot to the next before it is refused. */
  maxShrink: number;
}

/**
 * Turns a zone file into the snapshot of its TLD and date. Nothing is visible until the whole
 * file has been read and checked: a corrupt, truncated or suspiciously small zone leaves the
 * previous snapshots, and everything computed from them, untouched.
 */
export class ZoneImporter {
  readonly #locks = new KeyedMutex();

  constructor(private readonly options: ZoneImporterOptions) {}

  async importZoneFile(request: ZoneImportRequest): Promise<ZoneImportResult> {
    const tld = normalizeTld(request.tld);
    const date = assertSnapshotDate(request.date);
    return this.#locks.run(`${tld}/${date}`, async () => {
      // The file first: a path that does not exist is an error even when the date is held already.
      await assertReadableFile(request.file);
      const existing = await this.existingSnapshot(tld, date);
      if (existing) return existing;
      const { store, catalog } = this.options;
      const scan = readZoneFile(request.file, tld);
      const sorted = sortUnique(scan.nameBatches, {
        tempDir: this.options.tempDir,
        chunkNames: this.options.sortChunkNames,
      });
      const staged = await store.stage(tld, date, sorted);
      try {
        await this.#assertPlausibleSize(tld, date, staged.names);
        await staged.commit();
      } catch (error) {
        await staged.discard();
        throw error;
      }
      await catalog.recordSnapshot({
        tld,
        date,
        names: staged.names,
        bytes: staged.bytes,
        source: request.source ?? 'file',
        imported_at: this.options.clock.now(),
      });
      return { tld, date, names: staged.names, status: 'imported' };
    });
  }

  /**
   * A committed snapshot makes a re-run a no-op. The file is the truth: if a crash came between
   * its rename and the catalog row, the row is rebuilt from the file.
   */
  async existingSnapshot(tld: string, date: string): Promise<ZoneImportResult | undefined> {
    const { store, catalog } = this.options;
    if (!(await store.has(tld, date))) return undefined;
    let record = await catalog.snapshot(tld, date);
    if (!record) {
      const { names, bytes } = await store.measure(tld, date);
      record = { tld, date, names, bytes, source: 'file', imported_at: this.options.clock.now() };
      await catalog.recordSnapshot(record);
    }
    return { tld, date, names: record.names, status: 'already_imported' };
  }

  async #assertPlausibleSize(tld: string, date: string, names: number): Promise<void> {
    const previous = await this.options.catalog.previousSnapshot(tld, date);
    if (!previous || previous.names === 0) return;
    const lost = (previous.names - names) / previous.names;
    if (lost > this.options.maxShrink) {
      throw new ZoneError(
        'zone_shrunk_too_much',
        `The .${tld} zone of ${date} has ${names} names, ${Math.round(lost * 100)}% fewer than on ${previous.date} ` +
          `(${previous.names}); refusing it as probably incomplete (limit ZONE_MAX_SHRINK=${this.options.maxShrink}).`,
        { details: { names, previous_names: previous.names, previous_date: previous.date } },
      );
    }
  }
}

async function assertReadableFile(file: string): Promise<void> {
  try {
    if ((await stat(file)).isFile()) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  throw new ZoneError('zone_file_not_found', `Zone file not found: ${file}`);
}
