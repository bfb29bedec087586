import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, migrateToLatest } from '@repo/server-kit';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '@repo/server-kit/testing';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { migrations } from '../src/db/migrations/index.ts';
import type { DB } from '../src/db/schema.ts';
import { SqlQuotaStore } from '../src/quota/sql-quota-store.ts';

const postgres = databaseTargets().find((target) => target.name === 'postgres')!;
const sqlite = databaseTargets().find((target) => target.name === 'sqlite')!;

describe('SQL quota store on SQLite', () => {
  let provisioned: ProvisionedDatabase;
  let database: Database<DB>;
  let logged: Kysely<DB>;
  const statements: string[] = [];
  before(async () => {
    provisioned = await sqlite.provision();
    database = openProvisioned<DB>(provisioned, { sqliteFile: 'quota.sqlite' });
    await migrateToLatest(database, migrations);
    const accounts = ['acc_1', 'acc_2', 'acc_3'].map((id) => ({ id, email: `${id}@example.com`, created_at: 0 }));
    await database.db.insertInto('accounts').values(accounts).execute();
    // The same file through a connection that records every statement it runs, transaction control included.
    logged = new Kysely<DB>({
      dialect: new SqliteDialect({ database: new SQLite(database.location) }),
      log: (event) => {
        statements.push(event.query.sql.split(' ')[0]!.toLowerCase());
      },
    });
  });
  after(async () => {
    await logged?.destroy();
    await database?.close();
    await provisioned?.cleanup();
  });

  it("commits the takes of several accounts once, in one transaction (one commit's locks and WAL writes per turn), exactly", async () => {
    const store = new SqlQuotaStore(logged);
    const take = (accountId: string, units: number) => ({
      accountId,
      day: '2026-03-10',
      limit: 5,
      units,
      secondsToReset: 60,
    });
    await store.takeMany([take('acc_1', 4)]);
    statements.length = 0;
    const outcomes = await store.takeMany([take('acc_1', 3), take('acc_2', 2), take('acc_3', 1)]);
    assert.deepEqual(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason)),
      [
        { taken: 1, used: 5 },
        { taken: 2, used: 2 },
        { taken: 1, used: 1 },
      ],
    );
    assert.equal(statements[0], 'begin');
    assert.equal(statements.at(-1), 'commit');
    assert.equal(statements.filter((statement) => statement === 'begin').length, 1, statements.join(' '));
    assert.equal(statements.filter((statement) => statement === 'commit').length, 1, statements.join(' '));
    statements.length = 0;
    await store.takeMany([take('acc_2', 1)]);
    assert.deepEqual(statements, ['insert'], "one account's take is its statement alone");
    assert.equal(await new SqlQuotaStore(database.db).used('acc_1', '2026-03-10'), 5);
    assert.equal(await new SqlQuotaStore(database.db).used('acc_2', '2026-03-10'), 3);
  });
});

describe('SQL quota store on PostgreSQL', { skip: postgres.skip }, () => {
  let provisioned: ProvisionedDatabase;
  let database: Database<DB>;
  let store: SqlQuotaStore;
  before(async () => {
    provisioned = await postgres.provision();
    // One connection, so the session read below is the one the takes ran on.
    database = openProvisioned<DB>(provisioned, { sqliteFile: 'unused.sqlite', poolSize: 1 });
    await migrateToLatest(database, migrations);
    await database.db.insertInto('accounts').values({ id: 'acc_1', email: 'one@example.com', created_at: 0 }).execute();
    store = new SqlQuotaStore(database.db);
  });
  after(async () => {
    await database?.close();
    await provisioned?.cleanup();
  });

  const sessionSetting = async () =>
    (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(database.db)).rows[0]!
      .synchronous_commit;

  it("counts takes exactly and keeps its asynchronous commit to the take's own transaction (the session's later writes stay durable)", async () => {
    const before = await sessionSetting();
    const take = async (units: number) => {
      const [outcome] = await store.takeMany([
        { accountId: 'acc_1', day: '2026-03-10', limit: 5, units, secondsToReset: 60 },
      ]);
      return outcome;
    };
    assert.deepEqual(await take(3), { status: 'fulfilled', value: { taken: 3, used: 3 } });
    assert.deepEqual(await take(3), { status: 'fulfilled', value: { taken: 2, used: 5 } });
    assert.deepEqual(await take(1), { status: 'fulfilled', value: { taken: 0, used: 5 } });
    assert.equal(await sessionSetting(), before);
    assert.equal(await store.used('acc_1', '2026-03-10'), 5);
  });
});
