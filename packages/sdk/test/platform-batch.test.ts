import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { PERMISSION_NAMES } from '../../../apps/social-platform/src/applications/permissions.ts';
import { PlatformAppClient, PlatformError } from '../src/index.ts';
import { type RunningPlatform, startPlatform } from './servers.ts';

for (const target of databaseTargets()) {
  describe(`PlatformAppClient.batch against the running platform (${target.name})`, { skip: target.skip }, () => {
    let t: RunningPlatform;
    let client: PlatformAppClient;
    let alice: { id: number };
    let bob: { id: number };

    before(async () => {
      t = await startPlatform(target, { API_RATE_LIMIT: '1000' });
      const developer = await t.user('developer');
      const { id: appId } = await t.ctx.apps.create({
        name: 'SDK batch app',
        canvasUrl: 'https://app.test/',
        ownerId: developer.id,
        permissions: PERMISSION_NAMES,
        published: true,
      });
      alice = await t.user('alice');
      bob = await t.user('bob');
      await t.ctx.friends.befriend(alice.id, bob.id);
      await t.ctx.grants.grant(appId, alice.id, PERMISSION_NAMES);
      client = await PlatformAppClient.fromKey({
        baseUrl: t.baseUrl,
        key: await t.ctx.appAuth.issueAppKey(appId, alice.id),
      });
    });
    after(async () => t?.close());

    it('answers one result per call, in order, a failed call among them', async () => {
      const results = await client.batch([
        { method: 'user.getUser' },
        { method: 'friend.isFriend', params: { friend_user_id: bob.id, user_id: undefined } },
        { method: 'notification.add', params: { message: 'From a batch' } },
        { method: 'friend.getFriends', params: { page: 1 } },
        { method: 'user.getUser', params: { user_id: 999_999 } },
      ]);
      assert.equal(results.length, 5);
      const [own, isFriend, added, friends, missing] = results;
      assert.ok(own?.ok && (own.output as { user_id: number }).user_id === alice.id);
      assert.deepEqual(isFriend?.ok && isFriend.output, { is_friend: 1 });
      assert.ok(added?.ok, 'a POST-only method runs: the SDK sends the batch as a POST form');
      assert.ok(friends?.ok && friends.total === 1 && friends.page === 1);
      assert.deepEqual(missing, {
        ok: false,
        error: { code: 'user_not_found', message: (missing as { error: { message: string } }).error.message },
      });
    });

    it('throws a PlatformError for a batch of 26 calls', async () => {
      const error = await client
        .batch(Array.from({ length: 26 }, () => ({ method: 'user.getUser' })))
        .catch((caught: unknown) => caught);
      assert.ok(error instanceof PlatformError);
      assert.equal(error.code, 'batch_too_large');
      assert.equal(error.status, 400);
    });
  });
}
