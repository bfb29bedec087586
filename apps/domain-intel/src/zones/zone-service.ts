import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '@repo/server-kit';
import type { CzdsClient } from './czds-client.ts';
import { isZoneError, ZoneError } from './errors.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import { assertSnapshotDate, normalizeTld } from './validation.ts';
import type { SnapshotRecord, ZoneCatalog } from './zone-catalog.ts';
import type { ZoneImporter, ZoneImportRequest, ZoneImportResult } from './zone-import.ts';

/** ICANN's terms: each zone file at most once per 24 hours. */
export const CZDS_DOWNLOAD_INTERVAL_MS = 24 * 3_600_000;
/**
 * The daily job starts at about the same time each day; without some slack, a run that fires a
 * few seconds earlier than yesterday's would be refused and the TLD would miss a whole day.
 */
export const CZDS_SCHEDULE_SLACK_MS = 10 * 60_000;

/** Failures of a downloaded file that downloading the same file again cannot fix. */
const BAD_FILE_CODES = new Set(['zone_file_corrupt', 'zone_file_truncated', 'zone_file_invalid']);

export interface ZoneServiceOptions {
  czds: CzdsClient;
  importer: ZoneImporter;
  catalog: ZoneCatalog;
  clock: Clock;
  /** Where downloaded zone files wait for their import: `<dir>/<tld>/<date>.zone.gz`. */
  downloadDir: string;
  trackedTlds: readonly string[];
}

/** Daily zone intake: CZDS download → import → snapshot, once per TLD and date. */
export class ZoneService {
  readonly #locks = new KeyedMutex();

  constructor(private readonly options: ZoneServiceOptions) {}

  get trackedTlds(): readonly string[] {
    return this.options.trackedTlds;
  }

  /** The catalog of imported snapshots (name counts, sizes), by TLD then date. */
  listSnapshots(tld?: string): Promise<SnapshotRecord[]> {
    return this.options.catalog.snapshots(tld === undefined ? undefined : normalizeTld(tld));
  }

  importZoneFile(request: ZoneImportRequest): Promise<ZoneImportResult> {
    return this.options.importer.importZoneFile(request);
  }

  /**
   * Makes sure the snapshot of `tld` for `date` exists. Downloads from CZDS only when there is
   * neither a snapshot nor an already downloaded file for that date, and only if the last
   * download of the TLD is more than 24 h old. A download whose import was interrupted is
   * imported on the next run without being fetched again.
   */
  async syncTld(tld: string, date: string): Promise<ZoneImportResult> {
    const zone = normalizeTld(tld);
    assertSnapshotDate(date);
    return this.#locks.run(zone, async () => {
      const existing = await this.options.importer.existingSnapshot(zone, date);
      if (existing) return existing;
      const file = path.join(this.options.downloadDir, zone, `${date}.zone.gz`);
      if (!(await exists(file))) await this.#download(zone, date, file);
      try {
        const result = await this.options.importer.importZoneFile({ tld: zone, date, file, source: 'czds' });
        await rm(file, { force: true });
        return result;
      } catch (error) {
        if (isZoneError(error) && BAD_FILE_CODES.has(error.code)) await rm(file, { force: true });
        throw error;
      }
    });
  }

  async #download(tld: string, date: string, file: string): Promise<void> {
    const { czds, catalog, clock } = this.options;
    const last = await catalog.lastDownload(tld);
    const now = clock.now();
    const interval = CZDS_DOWNLOAD_INTERVAL_MS - CZDS_SCHEDULE_SLACK_MS;
    if (last && now - last.downloaded_at < interval) {
      const nextAllowedAt = new Date(last.downloaded_at + interval).toISOString();
      throw new ZoneError(
        'czds_download_limit',
        `The .${tld} zone was downloaded at ${new Date(last.downloaded_at).toISOString()}; ` +
          `CZDS allows one download per 24 h, the next at ${nextAllowedAt}.`,
        { details: { next_allowed_at: nextAllowedAt } },
      );
    }
    const link = await czds.linkFor(tld);
    const { bytes } = await czds.download(link, file);
    // The start time: a slow download must not push the next day's allowed start later.
    await catalog.recordDownload({ tld, date, bytes, downloaded_at: now });
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
