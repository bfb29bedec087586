import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

/** Renames a user the way another instance (or the CLI) would: around this process's Kysely and its caches. */
async function renameElsewhere(t: TestApp, userId: number, fullName: string): Promise<void> {
  await t.ctx.database.db.updateTable('users').set({ full_name: fullName }).where('id', '=', userId).execute();
}

for (const target of databaseTargets()) {
  describe(`api.php's user rows (${target.name})`, { skip: target.skip }, () => {
    it('are reused for USER_CACHE_TTL_MS, and a change made by this process shows at the next call', async () => {
      // Long enough that no row expires during the test: what shows is what the cache holds.
      const t = await createTestApp({ target, env: { USER_CACHE_TTL_MS: '60000' } });
      try {
        const caller = await t.user('caller');
        const other = await t.user('other');
        const token = await t.tokenFor(caller.id);
        const nameOf = async () => (await t.call({ token, method: 'user.getUser', user_id: other.id })).body.output;
        assert.equal((await nameOf()).full_name, other.full_name);
        await renameElsewhere(t, other.id, 'Renamed Elsewhere');
        assert.equal((await nameOf()).full_name, other.full_name, 'another process’s change waits for the TTL');
        await t.ctx.users.updateProfile(other.id, { fullName: 'Renamed Here' });
        assert.equal((await nameOf()).full_name, 'Renamed Here', "this process's write drops the cached row");
        const missing = await t.call({ token, method: 'user.getUser', user_id: 999_999 });
        assert.equal(missing.body.output.error.code, 'user_not_found');
      } finally {
        await t.close();
      }
    });

    it("keep the token's own record (and its JSON) only as long as its row: a change made here shows at the next call", async () => {
      const t = await createTestApp({ target, env: { USER_CACHE_TTL_MS: '60000', TOKEN_CACHE_TTL_MS: '60000' } });
      try {
        const caller = await t.user('caller');
        const token = await t.tokenFor(caller.id);
        const own = async () =>
          (await t.app.inject({ url: '/api.php', query: { token, method: 'user.getUser' } })).body;
        const first = await own();
        assert.equal(await own(), first, 'the same record, written the same way');
        assert.equal(JSON.parse(first).output.full_name, caller.full_name);
        assert.equal(JSON.parse(first).output.email, caller.email, 'the app may see the email (every permission)');
        await t.ctx.users.updateProfile(caller.id, { fullName: 'Renamed Self' });
        const renamed = JSON.parse(await own());
        assert.deepEqual(renamed, {
          ...JSON.parse(first),
          output: { ...JSON.parse(first).output, full_name: 'Renamed Self' },
        });
      } finally {
        await t.close();
      }
    });

    it('are read every time with USER_CACHE_TTL_MS=0', async () => {
      const t = await createTestApp({ target, env: { USER_CACHE_TTL_MS: '0' } });
      try {
        const caller = await t.user('caller');
        const other = await t.user('other');
        const token = await t.tokenFor(caller.id);
        const nameOf = async () => (await t.call({ token, method: 'user.getUser', user_id: other.id })).body.output;
        assert.equal((await nameOf()).full_name, other.full_name);
        await renameElsewhere(t, other.id, 'Renamed Elsewhere');
        assert.equal((await nameOf()).full_name, 'Renamed Elsewhere');
      } finally {
        await t.close();
      }
    });
  });
}
