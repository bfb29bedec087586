import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { UsageService } from '../src/applications/usage-service.ts';
import { createTestApp, type TestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`api.php usage counts (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      // No periodic write: what is stored is what a graceful stop or an explicit write put there.
      t = await createTestApp({ target, env: { USAGE_FLUSH_MS: '0' } });
    });
    after(() => t.close());

    /** app_usage as stored, read around the service (whose `recent` writes its counts first). */
    const stored = async (appId: number) =>
      (
        await t.ctx.database.db
          .selectFrom('app_usage')
          .select(['method', 'calls', 'errors', 'last_error_code'])
          .where('app_id', '=', appId)
          .orderBy('method')
          .execute()
      ).map((row) => [row.method, Number(row.calls), Number(row.errors), row.last_error_code]);

    const newApp = async (name: string) => {
      const owner = await t.user(name);
      return (await t.ctx.apps.create({ name, canvasUrl: `https://${name}.test/`, ownerId: owner.id })).id;
    };

    it('keeps the counts of api.php calls in memory and writes them on a graceful stop', async () => {
      const user = await t.user('counted');
      const token = await t.tokenFor(user.id);
      for (let i = 0; i < 3; i++) assert.equal((await t.call({ token, method: 'user.getUser' })).status, 200);
      assert.equal((await t.call({ token, method: 'user.getUser', user_id: 999_999 })).status, 404);
      const { app_id: testAppId } = await t.ctx.database.db
        .selectFrom('api_tokens')
        .select('app_id')
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(await stored(testAppId), [], 'nothing is written per call');
      await t.restart();
      assert.deepEqual(await stored(testAppId), [['user.getUser', 4, 1, 'user_not_found']]);
    });

    it('writes every flushEveryMs, one upsert per app, day and method', async (context) => {
      context.mock.timers.enable({ apis: ['setInterval'] });
      const appId = await newApp('ticking');
      const usage = new UsageService(t.ctx.database.db, t.clock, { flushEveryMs: 1000 });
      try {
        usage.record(appId, 'user.getUser', undefined);
        usage.record(appId, 'user.getUser', 'rate_limited');
        context.mock.timers.tick(999);
        await usage.settled();
        assert.deepEqual(await stored(appId), []);
        context.mock.timers.tick(1);
        await usage.settled();
        assert.deepEqual(await stored(appId), [['user.getUser', 2, 1, 'rate_limited']]);
        usage.record(appId, 'user.getUser', undefined);
        usage.record(appId, 'friend.getFriends', undefined);
        context.mock.timers.tick(1000);
        await usage.settled();
        assert.deepEqual(await stored(appId), [
          ['friend.getFriends', 1, 0, null],
          ['user.getUser', 3, 1, 'rate_limited'],
        ]);
      } finally {
        await usage.stop();
      }
    });

    it("drops the counts of an app deleted before they were written, and writes the others'", async () => {
      const kept = await newApp('kept');
      const deleted = await newApp('deleted');
      const usage = new UsageService(t.ctx.database.db, t.clock, { flushEveryMs: 0 });
      usage.record(deleted, 'user.getUser', undefined);
      usage.record(kept, 'user.getUser', undefined);
      await t.ctx.apps.delete(deleted);
      await usage.flush();
      assert.deepEqual(await stored(kept), [['user.getUser', 1, 0, null]]);
      assert.deepEqual(await stored(deleted), []);
    });
  });
}
