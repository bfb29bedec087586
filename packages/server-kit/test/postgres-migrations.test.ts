import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Database, migrateToLatest } from '../src/index.ts';
import { databaseTargets, type ProvisionedDatabase } from '../src/testing/databases.ts';

const postgres = databaseTargets()[1]!;

const migrations = () => ({
  '0001_notes': {
    up: async (db: import('kysely').Kysely<unknown>) => {
      await db.schema
        .createTable('notes')
        .addColumn('id', 'serial', (col) => col.primaryKey())
        .execute();
    },
  },
});

describe('migrations on a PostgreSQL database that other schemas come and go in', { skip: postgres.skip }, () => {
  let provisioned: ProvisionedDatabase;
  let database: Database<unknown>;
  before(async () => {
    provisioned = await postgres.provision();
    database = createDatabase({
      databaseUrl: provisioned.databaseUrl,
      dataDir: provisioned.dataDir,
      sqliteFile: 'unused.db',
      postgresSchema: provisioned.postgresSchema,
    });
  });
  after(async () => {
    await database?.close();
    await provisioned?.cleanup();
  });

  it('introspects only its own schema', async () => {
    await migrateToLatest(database, migrations);
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    assert.deepEqual(tables.map((table) => table.name).sort(), ['kysely_migration', 'kysely_migration_lock', 'notes']);
    assert.ok(tables.every((table) => table.schema === provisioned.postgresSchema));
    const notes = tables.find((table) => table.name === 'notes');
    assert.deepEqual(
      notes?.columns.map((column) => [column.name, column.dataType, column.isAutoIncrementing, column.isNullable]),
      [['id', 'int4', true, false]],
    );
    const withoutKysely = await database.db.introspection.getTables();
    assert.deepEqual(
      withoutKysely.map((table) => table.name),
      ['notes'],
    );
  });

  // Kysely's own introspector failed here with `schema "<other>" does not exist` whenever another
  // schema was dropped during its scan: the flake that parallel test runs hit now and then.
  it('keeps migrating while other schemas are created and dropped beside it', async () => {
    const admin = new pg.Client({ connectionString: provisioned.databaseUrl });
    await admin.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const other = `churn_${randomBytes(5).toString('hex')}`;
        await admin.query(`create schema ${other}; create table ${other}.t (id serial primary key)`);
        await admin.query(`drop schema ${other} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 40; round++) {
        await migrateToLatest(database, migrations);
        await sql`select 1`.execute(database.db);
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
  });
});
