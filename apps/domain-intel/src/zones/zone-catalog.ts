import type { Kysely } from 'kysely';
import type { DB, ZoneDownloadTable, ZoneSnapshotTable } from '../db/schema.ts';

export type SnapshotSource = 'czds' | 'file';
export type SnapshotRecord = ZoneSnapshotTable;
export type DownloadRecord = ZoneDownloadTable;

/** The database side of snapshots: counts per TLD and date, and when each TLD was last downloaded. */
export class ZoneCatalog {
  constructor(private readonly db: Kysely<DB>) {}

  async snapshot(tld: string, date: string): Promise<SnapshotRecord | undefined> {
    const row = await this.db
      .selectFrom('zone_snapshots')
      .selectAll()
      .where('tld', '=', tld)
      .where('date', '=', date)
      .executeTakeFirst();
    return row && normalizeSnapshot(row);
  }

  /** The latest snapshot strictly before `date`. */
  async previousSnapshot(tld: string, date: string): Promise<SnapshotRecord | undefined> {
    const row = await this.db
      .selectFrom('zone_snapshots')
      .selectAll()
      .where('tld', '=', tld)
      .where('date', '<', date)
      .orderBy('date', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && normalizeSnapshot(row);
  }

  async snapshots(tld?: string): Promise<SnapshotRecord[]> {
    let query = this.db.selectFrom('zone_snapshots').selectAll().orderBy('tld').orderBy('date');
    if (tld) query = query.where('tld', '=', tld);
    return (await query.execute()).map(normalizeSnapshot);
  }

  async recordSnapshot(record: SnapshotRecord): Promise<void> {
    await this.db
      .insertInto('zone_snapshots')
      .values(record)
      .onConflict((conflict) =>
        conflict.columns(['tld', 'date']).doUpdateSet({
          names: record.names,
          bytes: record.bytes,
          source: record.source,
          imported_at: record.imported_at,
        }),
      )
      .execute();
  }

  async lastDownload(tld: string): Promise<DownloadRecord | undefined> {
    const row = await this.db.selectFrom('zone_downloads').selectAll().where('tld', '=', tld).executeTakeFirst();
    return row && { ...row, bytes: Number(row.bytes), downloaded_at: Number(row.downloaded_at) };
  }

  async recordDownload(record: DownloadRecord): Promise<void> {
    await this.db
      .insertInto('zone_downloads')
      .values(record)
      .onConflict((conflict) =>
        conflict
          .column('tld')
          .doUpdateSet({ date: record.date, bytes: record.bytes, downloaded_at: record.downloaded_at }),
      )
      .execute();
  }
}

/** Postgres returns int8 columns as strings. */
function normalizeSnapshot(row: SnapshotRecord): SnapshotRecord {
  return { ...row, names: Number(row.names), bytes: Number(row.bytes), imported_at: Number(row.imported_at) };
}
