import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { type Database, prepareQuery } from '../src/index.ts';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '../src/testing/databases.ts';

const postgres = databaseTargets()[1]!;

interface NotesDB {
  notes: { id: number; body: string };
}

describe('prepared queries on PostgreSQL', { skip: postgres.skip }, () => {
  let provisioned: ProvisionedDatabase;
  let database: Database<NotesDB>;
  let db: Kysely<NotesDB>;
  before(async () => {
    provisioned = await postgres.provision();
    // One connection: every statement below runs on the session whose prepared statements are read.
    database = openProvisioned<NotesDB>(provisioned, { sqliteFile: 'unused.db', poolSize: 1 });
    db = database.db;
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await sql`insert into notes values (1, 'one'), (2, 'two')`.execute(db);
  });
  after(async () => {
    await database?.close();
    await provisioned?.cleanup();
  });

  const preparedOnThisSession = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
      (row) => row.statement,
    );

  it('keeps a prepareQuery statement prepared on the connection and answers each run with its own values', async () => {
    const byId = prepareQuery(db, [0], (id: number) => db.selectFrom('notes').select('body').where('id', '=', id));
    assert.deepEqual(await byId(1), [{ body: 'one' }]);
    assert.deepEqual(await byId(2), [{ body: 'two' }]);
    assert.deepEqual(await byId(3), []);
    const prepared = await preparedOnThisSession();
    assert.equal(prepared.filter((statement) => statement.includes('from "notes"')).length, 1);
  });

  it('runs other statements unnamed, as before', async () => {
    await db.selectFrom('notes').select('id').where('body', '=', 'two').execute();
    const prepared = await preparedOnThisSession();
    assert.ok(prepared.every((statement) => !statement.includes('"body" =')));
  });
});
