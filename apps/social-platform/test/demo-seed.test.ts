import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DEMO_PASSWORD, seedDemo } from '../demo/seed.ts';
import { createTestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`demo seed (${target.name})`, { skip: target.skip }, () => {
    it('creates friends, mail, notifications, photos and the sample app, once', async () => {
      const t = await createTestApp({ target, env: { SAMPLE_APP_URL: 'http://127.0.0.1:3200/' } });
      try {
        const first = await seedDemo(t.ctx);
        const second = await seedDemo(t.ctx);
        assert.deepEqual(second, first);
        assert.equal(first.login.password, DEMO_PASSWORD);
        const alice = await t.ctx.users.verifyPassword(first.login.user_name, DEMO_PASSWORD);
        assert.equal(alice?.id, first.users.alice);
        assert.ok(alice?.picture_photo_id);
        assert.equal((await t.ctx.friends.list(alice.id, { page: 1, perPage: 10 })).total, 3);
        assert.equal(await t.ctx.mail.unseenCount(alice.id), 3);
        assert.equal(await t.ctx.notifications.unseenCount(alice.id), 3);
        assert.equal((await t.ctx.photos.list(alice.id, alice.id, { page: 1, perPage: 10 })).total, 2);
        assert.deepEqual(
          (await t.ctx.friends.incomingRequests(alice.id)).map((request) => request.user.user_name),
          ['dmitri'],
        );
        const sampleApp = await t.ctx.apps.getById(first.app_id);
        assert.equal(sampleApp.canvas_url, 'http://127.0.0.1:3200/');
      } finally {
        await t.close();
      }
    });
  });
}
