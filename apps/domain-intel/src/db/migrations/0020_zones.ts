import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/** The catalog of imported zone snapshots (the files live under DATA_DIR/zones) and CZDS downloads. */
export const zonesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('zone_snapshots')
      .addColumn('tld', 'text', (col) => col.notNull())
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('names', int8, (col) => col.notNull())
      .addColumn('bytes', int8, (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('imported_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('zone_snapshots_pk', ['tld', 'date'])
      .execute();
    await db.schema
      .createTable('zone_downloads')
      .addColumn('tld', 'text', (col) => col.primaryKey())
      .addColumn('date', 'text', (col) => col.notNull())
      .addColumn('bytes', int8, (col) => col.notNull())
      .addColumn('downloaded_at', int8, (col) => col.notNull())
      .execute();
  },
});
