import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { LocalDiskStorage } from '../src/media/storage.ts';
import { PhotosService } from '../src/photos/photos-service.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { solidJpeg } from './upload-helpers.ts';

for (const target of databaseTargets()) {
  describe(`platform services (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target });
    });
    after(() => t.close());

    it('creates users with normalised, unique names and e-mails, and checks passwords', async () => {
      const user = await t.ctx.users.create({
        userName: '  Grace.Hopper ',
        fullName: 'Grace Hopper',
        email: 'Grace@Example.COM',
        password: 'cobol-forever',
        countryIso: 'us',
      });
      assert.equal(user.user_name, 'grace.hopper');
      assert.equal(user.email, 'grace@example.com');
      assert.equal(user.country_iso, 'US');
      assert.equal((await t.ctx.users.verifyPassword('GRACE.HOPPER', 'cobol-forever'))?.id, user.id);
      assert.equal((await t.ctx.users.verifyPassword('grace@example.com', 'cobol-forever'))?.id, user.id);
      assert.equal(await t.ctx.users.verifyPassword('grace.hopper', 'wrong-password'), undefined);
      assert.equal(await t.ctx.users.verifyPassword('nobody', 'cobol-forever'), undefined);
      await assert.rejects(
        t.ctx.users.create({ userName: 'grace.hopper', fullName: 'G', email: 'g2@example.com', password: 'password1' }),
        { code: 'user_name_taken', status: 409 },
      );
      await assert.rejects(
        t.ctx.users.create({ userName: 'grace2', fullName: 'G', email: 'GRACE@example.com', password: 'password1' }),
        { code: 'email_taken' },
      );
      for (const bad of [
        { userName: 'a', email: 'a@example.com', password: 'password1' },
        { userName: 'has space', email: 'b@example.com', password: 'password1' },
        { userName: 'valid-name', email: 'not-an-email', password: 'password1' },
        { userName: 'valid-name', email: 'c@example.com', password: 'short' },
      ]) {
        await assert.rejects(t.ctx.users.create({ fullName: 'X', ...bad }), { code: 'invalid_user', status: 400 });
      }
      const found = await t.ctx.users.search('HOPP', { page: 1, perPage: 10 });
      assert.deepEqual(
        found.items.map((item) => item.id),
        [user.id],
      );
      assert.equal((await t.ctx.users.search('100%', { page: 1, perPage: 10 })).total, 0);
      const fan = await t.user('pct');
      await t.ctx.database.db
        .updateTable('users')
        .set({ full_name: 'Fan 100% Club' })
        .where('id', '=', fan.id)
        .execute();
      assert.deepEqual(
        (await t.ctx.users.search('100%', { page: 1, perPage: 10 })).items.map((item) => item.id),
        [fan.id],
      );
      assert.equal((await t.ctx.users.search('1_0', { page: 1, perPage: 10 })).total, 0);
    });

    it('handles friend requests: request, accept, decline, mutual request, unfriend', async () => {
      const [a, b, c] = [await t.user('fa'), await t.user('fb'), await t.user('fc')];
      const friends = t.ctx.friends;
      assert.equal(await friends.request(a.id, b.id), 'requested');
      assert.equal(await friends.request(a.id, b.id), 'already_requested');
      assert.equal(await friends.isFriend(a.id, b.id), false);
      assert.deepEqual(
        (await friends.incomingRequests(b.id)).map((request) => request.user.id),
        [a.id],
      );
      await friends.accept(b.id, a.id);
      assert.equal(await friends.isFriend(a.id, b.id), true);
      assert.equal(await friends.isFriend(b.id, a.id), true);
      assert.equal(await friends.request(b.id, a.id), 'already_friends');
      await assert.rejects(friends.accept(b.id, a.id), { code: 'friend_request_not_found' });
      assert.equal(await friends.request(c.id, a.id), 'requested');
      await friends.decline(a.id, c.id);
      assert.equal(await friends.isFriend(a.id, c.id), false);
      assert.equal(await friends.request(c.id, a.id), 'requested');
      assert.equal(await friends.request(a.id, c.id), 'accepted', 'a request back accepts the waiting one');
      assert.equal((await friends.list(a.id, { page: 1, perPage: 10 })).total, 2);
      await friends.unfriend(b.id, a.id);
      assert.equal(await friends.isFriend(a.id, b.id), false);
      await assert.rejects(friends.request(a.id, a.id), { code: 'cannot_befriend_self' });
    });

    it('keeps mail in one conversation per pair with a seen flag for the recipient', async () => {
      const [a, b, c] = [await t.user('ma'), await t.user('mb'), await t.user('mc')];
      const mail = t.ctx.mail;
      await mail.send(a.id, b.id, 'first');
      t.clock.advance(1000);
      await mail.send(b.id, a.id, 'reply');
      t.clock.advance(1000);
      await mail.send(c.id, a.id, 'from c');
      const conversations = await mail.listConversations(a.id, { page: 1, perPage: 10 });
      assert.equal(conversations.total, 2);
      assert.deepEqual(
        conversations.items.map((item) => [item.otherUser.id, item.unseen]),
        [
          [c.id, 1],
          [b.id, 1],
        ],
      );
      const messages = await mail.listMessages(a.id, b.id, { page: 1, perPage: 10 });
      assert.deepEqual(
        messages.items.map((message) => message.body),
        ['reply', 'first'],
      );
      assert.equal(await mail.unseenCount(a.id), 2);
      assert.equal(await mail.markSeen(a.id, b.id), 1);
      assert.equal(await mail.unseenCount(a.id), 1);
      assert.equal(await mail.unseenCount(b.id), 1);
      await assert.rejects(mail.send(a.id, b.id, '   '), { code: 'empty_message' });
      await assert.rejects(mail.send(a.id, a.id, 'me'), { code: 'cannot_mail_self' });
    });

    it('validates notifications and marks them seen only for their owner', async () => {
      const [a, b] = [await t.user('na'), await t.user('nb')];
      const notification = await t.ctx.notifications.add(a.id, { message: 'Hello', link: 'https://x.test/' });
      await assert.rejects(t.ctx.notifications.add(a.id, { message: 'x', link: 'javascript:alert(1)' }), {
        code: 'invalid_notification',
      });
      await assert.rejects(t.ctx.notifications.markSeen(b.id, notification.id), { code: 'notification_not_found' });
      await t.ctx.notifications.markSeen(a.id, notification.id);
      assert.equal(await t.ctx.notifications.unseenCount(a.id), 0);
    });

    it('writes all seven files or none when storage fails part-way', async () => {
      const owner = await t.user('pa');
      const real = new LocalDiskStorage(t.ctx.mediaDir, t.config.PUBLIC_URL);
      let puts = 0;
      const flaky = {
        put: async (key: string, data: Buffer) => {
          if (++puts === 5) throw new Error('disk full');
          await real.put(key, data);
        },
        copy: (from: string, to: string) => real.copy(from, to),
        delete: (key: string) => real.delete(key),
        url: (key: string) => real.url(key),
      };
      const photos = new PhotosService(
        t.ctx.database.db,
        flaky,
        t.ctx.mediaSigner,
        t.ctx.friends,
        t.ctx.users,
        t.clock,
        t.ctx.photos.limits,
      );
      const before = await countFiles(t.ctx.mediaDir);
      await assert.rejects(photos.addPhoto({ ownerId: owner.id, data: await solidJpeg(300, 200) }), /disk full/);
      assert.equal(await countFiles(t.ctx.mediaDir), before);
      assert.equal((await t.ctx.photos.list(owner.id, owner.id, { page: 1, perPage: 10 })).total, 0);
    });

    it('deletes a photo with its files, and replaces a profile picture', async () => {
      const owner = await t.user('pb');
      const before = await countFiles(t.ctx.mediaDir);
      const photo = await t.ctx.photos.addPhoto({ ownerId: owner.id, data: await solidJpeg(200, 100) });
      assert.equal(await countFiles(t.ctx.mediaDir), before + 7);
      await t.ctx.photos.delete(owner.id, photo.id);
      assert.equal(await countFiles(t.ctx.mediaDir), before);
      await t.ctx.photos.setProfilePicture(owner.id, await solidJpeg(80, 80));
      await t.ctx.photos.setProfilePicture(owner.id, await solidJpeg(90, 90));
      assert.equal(await countFiles(t.ctx.mediaDir), before + 4);
    });

    it('counts every api.php call and failure of an app, the last failure code kept, and shows them at once', async () => {
      const owner = await t.user('usage');
      const application = await t.ctx.apps.create({
        name: 'Usage',
        canvasUrl: 'https://usage.test/',
        ownerId: owner.id,
      });
      const outcomes = Array.from({ length: 40 }, (_, i) => (i % 10 === 9 ? `code_${i}` : undefined));
      for (const code of outcomes) t.ctx.usage.record(application.id, 'user.getUser', code);
      t.ctx.usage.record(application.id, 'friend.getFriends', undefined);
      t.ctx.usage.record(application.id, 'user.getUser', undefined);
      const rows = await t.ctx.usage.recent(application.id, 1);
      assert.deepEqual(
        rows.map((row) => [row.method, row.calls, row.errors, row.lastErrorCode]),
        [
          ['friend.getFriends', 1, 0, null],
          ['user.getUser', 41, 4, 'code_39'],
        ],
      );
    });
  });
}

async function countFiles(dir: string): Promise<number> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
  } catch {
    return 0;
  }
}

describe('reading an upload stream', () => {
  it('refuses a stream over the limit, and one the multipart parser cut off', async () => {
    const { Readable } = await import('node:stream');
    const { readBounded } = await import('../src/media/read-bounded.ts');
    assert.equal((await readBounded(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), 20)).length, 20);
    await assert.rejects(readBounded(Readable.from([Buffer.alloc(10), Buffer.alloc(11)]), 20), {
      code: 'payload_too_large',
    });
    const cutOff = Object.assign(Readable.from([Buffer.alloc(20)]), { truncated: true });
    await assert.rejects(readBounded(cutOff, 20), { code: 'payload_too_large' });
  });
});
