import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, tempDir } from '@repo/server-kit/testing';
import { PERMISSION_NAMES } from '../../../apps/social-platform/src/applications/permissions.ts';
import { solidJpeg } from '../../../apps/social-platform/test/upload-helpers.ts';
import { hasCode, PlatformAppClient, PlatformError } from '../src/index.ts';
import { type RunningPlatform, startPlatform } from './servers.ts';

const SIZES = ['original', '75px', '100px', '150px', '240px', '500px', '1024px'] as const;

for (const target of databaseTargets()) {
  describe(`PlatformAppClient against the running platform (${target.name})`, { skip: target.skip }, () => {
    let t: RunningPlatform;
    let appId: number;
    let alice: { id: number };
    let bob: { id: number };
    let client: PlatformAppClient;
    // As a user who allowed the (published) app on its consent page.
    const keyFor = async (userId: number) => {
      await t.ctx.grants.grant(appId, userId, PERMISSION_NAMES);
      return t.ctx.appAuth.issueAppKey(appId, userId);
    };

    before(async () => {
      t = await startPlatform(target, { API_RATE_LIMIT: '1000' });
      const developer = await t.user('developer');
      appId = (
        await t.ctx.apps.create({
          name: 'SDK test app',
          canvasUrl: 'https://app.test/',
          ownerId: developer.id,
          permissions: PERMISSION_NAMES,
          published: true,
        })
      ).id;
      alice = await t.user('alice');
      bob = await t.user('bob');
      await t.ctx.friends.befriend(alice.id, bob.id);
      for (let n = 0; n < 22; n++) await t.ctx.friends.befriend(alice.id, (await t.user('pal')).id);
      for (let n = 0; n < 12; n++) {
        await t.ctx.notifications.add(alice.id, { message: `Note ${n}`, link: 'https://platform.test/notifications' });
      }
      await t.ctx.mail.send(bob.id, alice.id, 'Hi Alice');
      client = await PlatformAppClient.fromKey({ baseUrl: t.baseUrl, key: await keyFor(alice.id) });
    });
    after(async () => t?.close());

    it('trades a key once; a replayed key is a typed error', async () => {
      const key = await keyFor(bob.id);
      const first = await PlatformAppClient.fromKey({ baseUrl: t.baseUrl, key });
      assert.equal((await first.getUser()).user_id, bob.id);
      const replay = await PlatformAppClient.fromKey({ baseUrl: t.baseUrl, key }).catch((error: unknown) => error);
      assert.ok(replay instanceof PlatformError);
      assert.equal(replay.code, 'key_already_used');
      assert.equal(replay.status, 401);
    });

    it('reads profiles: e-mail only for the own user', async () => {
      const own = await client.getUser();
      assert.equal(own.user_id, alice.id);
      assert.ok(own.email);
      const other = await client.getUser({ userId: bob.id });
      assert.equal(other.user_id, bob.id);
      assert.equal(other.email, null, 'every User field is present; e-mail is null for anyone but the own user');
    });

    it('pages friends, notifications and counts', async () => {
      const first = await client.getFriends();
      assert.deepEqual(
        { count: first.items.length, total: first.total, pages: first.pages, page: first.page },
        {
          count: 10,
          total: 23,
          pages: 3,
          page: 1,
        },
      );
      const friends = [];
      for await (const friend of client.iterateFriends()) friends.push(friend.user_id);
      assert.equal(new Set(friends).size, 23);
      assert.ok(friends.includes(bob.id));

      assert.equal(await client.isFriend(bob.id), true);
      const stranger = await t.user('stranger');
      assert.equal(await client.isFriend(stranger.id), false);

      const notifications = [];
      for await (const notification of client.iterateNotifications()) notifications.push(notification.message);
      assert.equal(notifications.length, 12);
      assert.equal(await client.getNewNotificationCount(), 12);
      assert.equal(await client.getNewMailCount(), 1);
    });

    it('uploads photos from a buffer, a file, a Node stream and a web stream', async () => {
      const jpeg = await solidJpeg(640, 480);
      const dir = tempDir('sdk-photo');
      const file = path.join(dir.dir, 'holiday.jpg');
      await writeFile(file, jpeg);
      try {
        const uploads = [
          await client.addPhoto(jpeg, { photoName: 'from-buffer' }),
          await client.addPhoto(file),
          await client.addPhoto(Readable.from([jpeg.subarray(0, 1000), jpeg.subarray(1000)]), { photoName: 'node' }),
          await client.addPhoto(new Blob([new Uint8Array(jpeg)]).stream(), { photoName: 'web', visibility: 'friends' }),
        ];
        for (const upload of uploads) {
          for (const size of SIZES) assert.match(upload[size], /^https?:\/\//, `${size} URL`);
        }
        const photos = [];
        for await (const photo of client.iteratePhotos()) photos.push(photo.name);
        assert.deepEqual(photos.sort(), ['from-buffer', 'holiday', 'node', 'web']);
      } finally {
        dir.remove();
      }
    });

    it('refuses what is not an image, and a stream over the size limit before sending it', async () => {
      const notImage = await client.addPhoto(Buffer.from('just some text')).catch((error: unknown) => error);
      assert.ok(hasCode(notImage, 'unsupported_image_type'));
      assert.equal(notImage.status, 415);
      const huge = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
      await assert.rejects(client.addPhoto(huge, { maxBytes: 1000 }), { code: 'payload_too_large' });
    });

    it('names the missing user in a typed error', async () => {
      const error = await client.getUser({ userId: 999_999 }).catch((caught: unknown) => caught);
      assert.ok(hasCode(error, 'user_not_found'));
      assert.equal(error.status, 404);
    });
  });

  describe(`PlatformAppClient and the per-token rate limit (${target.name})`, { skip: target.skip }, () => {
    let t: RunningPlatform;
    before(async () => {
      t = await startPlatform(target, { API_RATE_LIMIT: '3', API_RATE_WINDOW_SECONDS: '1' });
    });
    after(async () => t?.close());

    it('retries a 429 after Retry-After when allowed, and throws it otherwise', async () => {
      const user = await t.user('busy');
      const token = await t.tokenFor(user.id);
      const client = new PlatformAppClient({ baseUrl: t.baseUrl, token });
      for (let i = 0; i < 3; i++) await client.getNewMailCount();
      const refused = await client.getNewMailCount().catch((error: unknown) => error);
      assert.ok(hasCode(refused, 'rate_limited'));
      assert.equal(refused.retryAfterSeconds, 1);

      const waits: number[] = [];
      const count = await client.getNewMailCount(
        {},
        { retry: { maxRetries: 3, onRetry: (r) => waits.push(r.waitSeconds) } },
      );
      assert.equal(count, 0);
      assert.ok(waits.length >= 1 && waits.every((seconds) => seconds === 1));
    });
  });
}
