import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Database, migrateToLatest } from '@repo/server-kit';
import { databaseTargets, openProvisioned, type ProvisionedDatabase } from '@repo/server-kit/testing';
import { sql } from 'kysely';
import { migrations } from '../src/db/migrations/index.ts';
import type { DB } from '../src/db/schema.ts';
import { SqlQuotaStore } from '../src/quota/sql-quota-store.ts';

const postgres = databaseTargets().find((target) => target.name === 'postgres')!;

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
