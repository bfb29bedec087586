import path from 'node:path';
import type { Clock } from '@repo/server-kit/clock';
import type { Database } from '@repo/server-kit/database';
import { sweepTemporaryFiles } from '@repo/server-kit/temp-files';
import type { Config } from '../config.ts';
import type { DB } from '../db/schema.ts';
import { CzdsClient } from './czds-client.ts';
import { FileSnapshotStore } from './file-snapshot-store.ts';
import { ZoneCatalog } from './zone-catalog.ts';
import { ZoneImporter } from './zone-import.ts';
import { ZoneService } from './zone-service.ts';

export { CzdsClient, type CzdsClientOptions, zoneOfLink } from './czds-client.ts';
export { isZoneError, ZoneError, type ZoneErrorCode } from './errors.ts';
export { sortUnique } from './external-sort.ts';
export { FileSnapshotStore } from './file-snapshot-store.ts';
export { diffSnapshots, type NameChange } from './snapshot-diff.ts';
export type { SnapshotStore, StagedSnapshot, WritableSnapshotStore } from './snapshot-store.ts';
export { diffSortedLines } from './sorted-diff.ts';
export { assertSnapshotDate, normalizeTld } from './validation.ts';
export { type SnapshotRecord, type SnapshotSource, ZoneCatalog } from './zone-catalog.ts';
export { ZoneImporter, type ZoneImportRequest, type ZoneImportResult } from './zone-import.ts';
export { readZoneFile, type ZoneReadStats, type ZoneScan } from './zone-reader.ts';
export { CZDS_DOWNLOAD_INTERVAL_MS, CZDS_SCHEDULE_SLACK_MS, ZoneService } from './zone-service.ts';

export interface ZonesModule {
  snapshots: FileSnapshotStore;
  zones: ZoneService;
  close(): Promise<void>;
}

/**
 * Everything under DATA_DIR/zones: `snapshots/<tld>/<date>.txt.gz` (the sorted name lists),
 * `downloads/<tld>/<date>.zone.gz` (CZDS files waiting for import), `tmp/` (sort runs).
 * Sort runs and snapshot temp files left by a crashed import are swept first; a download's
 * `.part` file is kept, since the next sync resumes it.
 */
export async function createZonesModule(config: Config, database: Database<DB>, clock: Clock): Promise<ZonesModule> {
  const root = path.join(config.DATA_DIR, 'zones');
  const snapshots = new FileSnapshotStore(path.join(root, 'snapshots'));
  const tempDir = path.join(root, 'tmp');
  await sweepTemporaryFiles(tempDir);
  await snapshots.sweepLeftovers();
  const catalog = new ZoneCatalog(database.db);
  const czds = new CzdsClient({
    authUrl: config.CZDS_AUTH_URL,
    apiUrl: config.CZDS_API_URL,
    username: config.CZDS_USERNAME,
    password: config.CZDS_PASSWORD,
    clock,
    maxRetries: config.CZDS_MAX_RETRIES,
    retryDelayMs: config.CZDS_RETRY_DELAY_MS,
    timeoutMs: config.CZDS_TIMEOUT_MS,
  });
  const importer = new ZoneImporter({
    store: snapshots,
    catalog,
    clock,
    tempDir,
    sortChunkNames: config.ZONE_SORT_CHUNK_NAMES,
    maxShrink: config.ZONE_MAX_SHRINK,
  });
  const zones = new ZoneService({
    czds,
    importer,
    catalog,
    clock,
    downloadDir: path.join(root, 'downloads'),
    trackedTlds: config.TRACKED_TLDS,
  });
  return { snapshots, zones, close: () => czds.close() };
}
