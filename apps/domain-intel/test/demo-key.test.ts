import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DEMO_EMAIL, replaceDemoKey } from '../demo/demo-key.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`the demo key of each npm start replaces the previous one (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target });
    });
    after(async () => t?.close());

    const status = async (key: string) => (await t.app.inject({ url: '/v1/quota', headers: bearer(key) })).statusCode;
    const activeNames = async () =>
      (await t.app.ctx.accounts.listKeys(DEMO_EMAIL)).filter((key) => key.revoked_at === null).map((key) => key.name);

    it('creates the demo account (Starter) once, then gives one working key per start', async () => {
      const first = await replaceDemoKey(t.app.ctx.accounts);
      assert.equal((await t.app.ctx.accounts.summary(DEMO_EMAIL)).plan, 'starter');
      const second = await replaceDemoKey(t.app.ctx.accounts);
      const third = await replaceDemoKey(t.app.ctx.accounts);
      assert.equal(await status(first.key), 401);
      assert.equal(await status(second.key), 401);
      assert.equal(await status(third.key), 200);
      assert.deepEqual(await activeNames(), ['default']);
    });

    it("revokes the pile of keys earlier versions added per start, and leaves the user's own keys alone", async () => {
      // Each an earlier start's, a minute apart: the newest start key is the one rotated.
      const legacy = [];
      for (const day of ['01', '02']) {
        t.clock.advance(60_000);
        legacy.push(await t.app.ctx.accounts.createKey(DEMO_EMAIL, `npm start 2026-03-${day}T10:00:00.000Z`));
      }
      const own = await t.app.ctx.accounts.createKey(DEMO_EMAIL, 'my laptop');
      const current = await replaceDemoKey(t.app.ctx.accounts);
      for (const key of legacy) assert.equal(await status(key.key), 401);
      assert.equal(await status(own.key), 200);
      assert.equal(await status(current.key), 200);
      assert.deepEqual((await activeNames()).sort(), ['my laptop', 'npm start 2026-03-02T10:00:00.000Z'].sort());
    });

    it('issues a new one when the user revoked every start key', async () => {
      for (const key of await t.app.ctx.accounts.listKeys(DEMO_EMAIL)) {
        if (key.revoked_at === null && key.name !== 'my laptop')
          await t.app.ctx.accounts.revokeKey(DEMO_EMAIL, key.key_id);
      }
      const fresh = await replaceDemoKey(t.app.ctx.accounts);
      assert.equal(await status(fresh.key), 200);
      assert.deepEqual((await activeNames()).sort(), ['default', 'my laptop']);
    });
  });
}
