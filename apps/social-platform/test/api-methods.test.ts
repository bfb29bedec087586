import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { User } from '../src/users/users-service.ts';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';

interface World {
  t: TestApp;
  alice: User;
  bob: User;
  carol: User;
  /** Shares the friends list with friends only; friend of bob. */
  dave: User;
  /** Shares the friends list with nobody. */
  erin: User;
  token: string;
}

/** Alice (the token's user) has bob and ten more friends; carol is a stranger to her. */
async function buildWorld(target: Parameters<typeof createTestApp>[0]['target']): Promise<World> {
  const t = await createTestApp({ target });
  const alice = await t.user('alice', { countryIso: 'de', gender: 'female' });
  const bob = await t.user('bob');
  const carol = await t.user('carol');
  const dave = await t.user('dave');
  const erin = await t.user('erin');
  await t.ctx.friends.befriend(alice.id, bob.id);
  for (let n = 0; n < 10; n++) await t.ctx.friends.befriend(alice.id, (await t.user('pal')).id);
  await t.ctx.friends.befriend(dave.id, bob.id);
  await t.ctx.friends.befriend(erin.id, bob.id);
  await t.ctx.users.setFriendsVisibility(dave.id, 'friends');
  await t.ctx.users.setFriendsVisibility(erin.id, 'private');
  return { t, alice, bob, carol, dave, erin, token: await t.tokenFor(alice.id) };
}

for (const target of databaseTargets()) {
  describe(`api.php methods (${target.name})`, { skip: target.skip }, () => {
    let w: World;
    before(async () => {
      w = await buildWorld(target);
    });
    after(() => w.t.close());
    const call = (params: Record<string, string | number>) => w.t.call({ token: w.token, ...params });

    it('refuses a missing, malformed or unknown method with a code', async () => {
      for (const [method, code] of [
        ['', 'missing_method'],
        ['user', 'invalid_method'],
        ['user.get-user', 'invalid_method'],
        ['user.getNobody', 'unknown_method'],
      ] as const) {
        const { status, body } = await call(method ? { method } : {});
        assert.equal(status, 400, method);
        assert.equal(body.output.error.code, code, method);
        assert.deepEqual(body.api, { total: 0, pages: 0, current_page: 0 });
      }
    });

    describe('user.getUser', () => {
      it('gives every field of the token user, with absolute URLs', async () => {
        const { status, body } = await call({ method: 'user.getUser' });
        assert.equal(status, 200);
        assert.deepEqual(body.api, { total: 1, pages: 1, current_page: 1 });
        assert.deepEqual(body.output, {
          user_id: w.alice.id,
          user_name: w.alice.user_name,
          full_name: w.alice.full_name,
          joined: Math.floor(w.alice.joined / 1000),
          country_iso: 'DE',
          gender: 'female',
          email: w.alice.email,
          photo_50px: `${PUBLIC_URL}/icons/avatar-50.png`,
          photo_50px_square: `${PUBLIC_URL}/icons/avatar-50-square.png`,
          photo_120px: `${PUBLIC_URL}/icons/avatar-120.png`,
          photo_original: `${PUBLIC_URL}/icons/avatar.png`,
          profile_url: `${PUBLIC_URL}/u/${w.alice.user_name}`,
        });
        const avatar = await w.t.app.inject('/icons/avatar-120.png');
        assert.equal(avatar.statusCode, 200);
        assert.equal(avatar.headers['content-type'], 'image/png');
      });

      it('gives country_iso and gender as null when the user did not give them', async () => {
        const plain = await w.t.user('plain');
        const { body } = await call({ method: 'user.getUser', user_id: plain.id });
        assert.equal(body.output.country_iso, null);
        assert.equal(body.output.gender, null);
        assert.deepEqual(Object.keys(body.output).sort(), [
          'country_iso',
          'email',
          'full_name',
          'gender',
          'joined',
          'photo_120px',
          'photo_50px',
          'photo_50px_square',
          'photo_original',
          'profile_url',
          'user_id',
          'user_name',
        ]);
      });

      it('gives the same for user_id of self, and no email for another user', async () => {
        assert.equal((await call({ method: 'user.getUser', user_id: w.alice.id })).body.output.email, w.alice.email);
        const other = await call({ method: 'user.getUser', user_id: w.carol.id });
        assert.equal(other.status, 200);
        assert.equal(other.body.output.user_id, w.carol.id);
        assert.equal(other.body.output.email, null);
      });

      it('refuses a user_id of nobody, and malformed ones', async () => {
        const nobody = await call({ method: 'user.getUser', user_id: 999_999 });
        assert.equal(nobody.status, 404);
        assert.equal(nobody.body.output.error.code, 'user_not_found');
        for (const userId of ['abc', '0', '-1', '1.5', ' 2']) {
          const bad = await call({ method: 'user.getUser', user_id: userId });
          assert.equal(bad.status, 400, userId);
          assert.equal(bad.body.output.error.code, 'invalid_parameter', userId);
          assert.equal(bad.body.output.error.parameter, 'user_id');
        }
      });

      it('includes profile picture URLs once the user has one', async () => {
        const sharp = (await import('sharp')).default;
        const image = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3060a0' } })
          .png()
          .toBuffer();
        await w.t.ctx.photos.setProfilePicture(w.bob.id, image);
        const { body } = await call({ method: 'user.getUser', user_id: w.bob.id });
        for (const field of ['photo_50px', 'photo_50px_square', 'photo_120px', 'photo_original']) {
          assert.match(body.output[field], new RegExp(`^${PUBLIC_URL}/media/`), field);
        }
        const square = await w.t.app.inject(body.output.photo_50px_square.slice(PUBLIC_URL.length));
        assert.equal(square.statusCode, 200);
        assert.deepEqual(
          await sharp(square.rawPayload)
            .metadata()
            .then((m) => [m.width, m.height]),
          [50, 50],
        );
      });
    });

    describe('friend.getFriends', () => {
      it('pages the token user friends, 10 a page, without email', async () => {
        const first = await call({ method: 'friend.getFriends' });
        assert.equal(first.status, 200);
        assert.deepEqual(first.body.api, { total: 11, pages: 2, current_page: 1 });
        assert.equal(first.body.output.length, 10);
        assert.ok(first.body.output.every((friend: Record<string, unknown>) => !('email' in friend)));
        const second = await call({ method: 'friend.getFriends', page: 2 });
        assert.deepEqual(second.body.api, { total: 11, pages: 2, current_page: 2 });
        assert.equal(second.body.output.length, 1);
        const ids = [...first.body.output, ...second.body.output].map((friend) => friend.user_id);
        assert.equal(new Set(ids).size, 11);
        assert.ok(ids.includes(w.bob.id));
        const past = await call({ method: 'friend.getFriends', page: 3 });
        assert.equal(past.status, 200);
        assert.deepEqual(past.body.api, { total: 11, pages: 2, current_page: 3 });
        assert.deepEqual(past.body.output, []);
      });

      it('answers page=0 as page 1, as phpFox SDK sends it for the first page', async () => {
        const first = await call({ method: 'friend.getFriends', page: 1 });
        for (const page of ['0', '00']) {
          const zero = await call({ method: 'friend.getFriends', page });
          assert.equal(zero.status, 200, page);
          assert.deepEqual(zero.body, first.body, page);
          assert.deepEqual(zero.body.api, { total: 11, pages: 2, current_page: 1 }, page);
        }
      });

      it('refuses negative, decimal and non-numeric pages', async () => {
        for (const page of ['-1', '-0', 'two', '1e2', '1.0', ' 1']) {
          const { status, body } = await call({ method: 'friend.getFriends', page });
          assert.equal(status, 400, page);
          assert.equal(body.output.error.code, 'invalid_parameter', page);
          assert.equal(body.output.error.parameter, 'page');
        }
      });

      it('shows another user friends as that user allows', async () => {
        const publicList = await call({ method: 'friend.getFriends', user_id: w.bob.id });
        assert.equal(publicList.status, 200);
        assert.deepEqual(publicList.body.api, { total: 3, pages: 1, current_page: 1 });
        const friendsOnly = await call({ method: 'friend.getFriends', user_id: w.dave.id });
        assert.equal(friendsOnly.status, 403);
        assert.equal(friendsOnly.body.output.error.code, 'permission_denied');
        const privateList = await call({ method: 'friend.getFriends', user_id: w.erin.id });
        assert.equal(privateList.status, 403);
        const bobToken = await w.t.tokenFor(w.bob.id);
        const asFriend = await w.t.call({ token: bobToken, method: 'friend.getFriends', user_id: w.dave.id });
        assert.equal(asFriend.status, 200);
        assert.deepEqual(
          asFriend.body.output.map((friend: { user_id: number }) => friend.user_id),
          [w.bob.id],
        );
        const nobody = await call({ method: 'friend.getFriends', user_id: 999_999 });
        assert.equal(nobody.status, 404);
      });
    });

    describe('friend.isFriend', () => {
      it('answers {is_friend: 1|0} for the token user and requires friend_user_id', async () => {
        assert.deepEqual((await call({ method: 'friend.isFriend', friend_user_id: w.bob.id })).body, {
          api: { total: 1, pages: 1, current_page: 1 },
          output: { is_friend: 1 },
        });
        assert.deepEqual((await call({ method: 'friend.isFriend', friend_user_id: w.carol.id })).body.output, {
          is_friend: 0,
        });
        const self = await call({ method: 'friend.isFriend', user_id: w.alice.id, friend_user_id: w.bob.id });
        assert.equal(self.body.output.is_friend, 1);
        const missing = await call({ method: 'friend.isFriend' });
        assert.equal(missing.status, 400);
        assert.equal(missing.body.output.error.code, 'missing_parameter');
        assert.equal(missing.body.output.error.parameter, 'friend_user_id');
        const nobody = await call({ method: 'friend.isFriend', friend_user_id: 999_999 });
        assert.equal(nobody.status, 404);
        assert.equal(nobody.body.output.error.code, 'user_not_found');
      });

      it('answers about two other users only when the first shares their friends list', async () => {
        const visible = await call({ method: 'friend.isFriend', user_id: w.bob.id, friend_user_id: w.dave.id });
        assert.equal(visible.body.output.is_friend, 1);
        const hidden = await call({ method: 'friend.isFriend', user_id: w.erin.id, friend_user_id: w.bob.id });
        assert.equal(hidden.status, 403);
        assert.equal(hidden.body.output.error.code, 'permission_denied');
      });
    });

    describe('mail.getNewCount', () => {
      it('counts unseen mail of the token user only', async () => {
        assert.equal((await call({ method: 'mail.getNewCount' })).body.output, 0);
        await w.t.ctx.mail.send(w.bob.id, w.alice.id, 'Hi Alice');
        await w.t.ctx.mail.send(w.carol.id, w.alice.id, 'Hello');
        await w.t.ctx.mail.send(w.alice.id, w.bob.id, 'Hi Bob');
        const { status, body } = await call({ method: 'mail.getNewCount' });
        assert.equal(status, 200);
        assert.deepEqual(body, { api: { total: 1, pages: 1, current_page: 1 }, output: 2 });
        assert.equal((await call({ method: 'mail.getNewCount', user_id: w.alice.id })).body.output, 2);
        await w.t.ctx.mail.markSeen(w.alice.id, w.bob.id);
        assert.equal((await call({ method: 'mail.getNewCount' })).body.output, 1);
        const other = await call({ method: 'mail.getNewCount', user_id: w.bob.id });
        assert.equal(other.status, 403);
        assert.equal(other.body.output.error.code, 'permission_denied');
        assert.equal((await call({ method: 'mail.getNewCount', user_id: 999_999 })).status, 404);
      });
    });

    describe('notifications', () => {
      it('counts and lists the token user notifications, newest first, 10 a page', async () => {
        for (let n = 1; n <= 12; n++) {
          await w.t.ctx.notifications.add(w.alice.id, { message: `Event ${n}`, link: '/mail' });
        }
        await w.t.ctx.notifications.add(w.bob.id, { message: 'Not yours', link: 'https://elsewhere.test/' });
        const count = await call({ method: 'notification.getNewCount' });
        assert.deepEqual(count.body, { api: { total: 1, pages: 1, current_page: 1 }, output: 12 });
        const first = await call({ method: 'notification.get' });
        assert.deepEqual(first.body.api, { total: 12, pages: 2, current_page: 1 });
        assert.equal(first.body.output.length, 10);
        assert.deepEqual(Object.keys(first.body.output[0]).sort(), ['icon', 'link', 'message', 'notification_id']);
        assert.equal(first.body.output[0].message, 'Event 12');
        assert.equal(first.body.output[0].link, `${PUBLIC_URL}/mail`);
        assert.match(first.body.output[0].icon, /^https:\/\//);
        const second = await call({ method: 'notification.get', page: 2, user_id: w.alice.id });
        assert.equal(second.body.output.length, 2);
        assert.deepEqual((await call({ method: 'notification.get', page: 5 })).body.output, []);
        await w.t.ctx.notifications.markSeen(w.alice.id, first.body.output[0].notification_id);
        assert.equal((await call({ method: 'notification.getNewCount' })).body.output, 11);
        assert.equal((await call({ method: 'notification.getNewCount', user_id: w.alice.id })).body.output, 11);
      });

      it('refuses notifications of another user or of nobody', async () => {
        for (const method of ['notification.get', 'notification.getNewCount']) {
          const other = await call({ method, user_id: w.bob.id });
          assert.equal(other.status, 403, method);
          assert.equal(other.body.output.error.code, 'permission_denied');
          assert.equal((await call({ method, user_id: 999_999 })).status, 404, method);
        }
      });
    });

    describe('photo.getPhotos', () => {
      it('lists photos with absolute URLs, respecting each photo visibility', async () => {
        const sharp = (await import('sharp')).default;
        const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#808000' } })
          .jpeg()
          .toBuffer();
        for (const visibility of ['public', 'friends', 'private'] as const) {
          await w.t.ctx.photos.addPhoto({ ownerId: w.bob.id, name: visibility, data: image, visibility });
        }
        const asFriend = await call({ method: 'photo.getPhotos', user_id: w.bob.id });
        assert.equal(asFriend.status, 200);
        assert.deepEqual(asFriend.body.api, { total: 2, pages: 1, current_page: 1 });
        assert.deepEqual(
          asFriend.body.output.map((photo: { name: string }) => photo.name),
          ['friends', 'public'],
        );
        for (const field of ['photo_100px', 'photo_240px', 'photo_original']) {
          assert.match(asFriend.body.output[0][field], new RegExp(`^${PUBLIC_URL}/media/`));
        }
        const carolToken = await w.t.tokenFor(w.carol.id);
        const asStranger = await w.t.call({ token: carolToken, method: 'photo.getPhotos', user_id: w.bob.id });
        assert.deepEqual(asStranger.body.api, { total: 1, pages: 1, current_page: 1 });
        const bobToken = await w.t.tokenFor(w.bob.id);
        const asOwner = await w.t.call({ token: bobToken, method: 'photo.getPhotos' });
        assert.equal(asOwner.body.api.total, 3);
        const mine = await call({ method: 'photo.getPhotos' });
        assert.deepEqual(mine.body, { api: { total: 0, pages: 0, current_page: 1 }, output: [] });
        assert.equal((await call({ method: 'photo.getPhotos', user_id: 999_999 })).status, 404);
      });

      it('pages photos 10 at a time with correct totals past the end', async () => {
        const sharp = (await import('sharp')).default;
        const tiny = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#204060' } })
          .png()
          .toBuffer();
        for (let n = 1; n <= 11; n++) {
          await w.t.ctx.photos.addPhoto({ ownerId: w.carol.id, name: `Photo ${n}`, data: tiny });
        }
        const first = await call({ method: 'photo.getPhotos', user_id: w.carol.id });
        assert.deepEqual(first.body.api, { total: 11, pages: 2, current_page: 1 });
        assert.equal(first.body.output[0].name, 'Photo 11');
        const second = await call({ method: 'photo.getPhotos', user_id: w.carol.id, page: 2 });
        assert.deepEqual(
          second.body.output.map((photo: { name: string }) => photo.name),
          ['Photo 1'],
        );
        const past = await call({ method: 'photo.getPhotos', user_id: w.carol.id, page: 3 });
        assert.deepEqual(past.body, { api: { total: 11, pages: 2, current_page: 3 }, output: [] });
        const bad = await call({ method: 'photo.getPhotos', page: '-1' });
        assert.equal(bad.body.output.error.code, 'invalid_parameter');
      });
    });
  });
}

for (const target of databaseTargets()) {
  describe(`api.php hostile input (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await createTestApp({ target });
      token = await t.tokenFor((await t.user('target')).id);
    });
    after(() => t.close());

    it('answers malformed calls with a 4xx code, never a 500', async () => {
      const cases: Array<{ url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; payload?: string }> =
        [
          { url: `/api.php?token=${token}&method=user.getUser&user_id=2147483648` },
          { url: `/api.php?token=${token}&method=user.getUser&user_id=99999999999999999999` },
          { url: `/api.php?token=${token}&method=user.getUser&user_id=1&user_id=2` },
          { url: `/api.php?token=${token}&method=user.getUser&method=friend.getFriends` },
          { url: `/api.php?token=${token}&token=${token}&method=user.getUser` },
          { url: `/api.php?token=${token}&method=${'a'.repeat(5000)}.b` },
          { url: `/api.php?token=${token}&method=friend.getFriends&page=99999999999` },
          { url: '/api.php?token[]=x&method=user.getUser' },
          {
            url: '/api.php',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ token: { nested: true }, method: 'user.getUser' }),
          },
          {
            url: `/api.php?token=${token}`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ method: ['user.getUser'] }),
          },
          { url: '/api.php', method: 'POST', headers: { 'content-type': 'text/plain' }, payload: 'token=x' },
          { url: '/api.php', method: 'POST', headers: { 'content-type': 'multipart/form-data' }, payload: 'garbage' },
          { url: '/token.php?key[]=1' },
        ];
      for (const { url, method = 'GET', headers, payload } of cases) {
        const response = await t.app.inject({ method, url, headers, payload });
        assert.ok(
          response.statusCode >= 400 && response.statusCode < 500,
          `${url}: ${response.statusCode} ${response.body}`,
        );
        const error = response.json().output?.error;
        assert.match(error?.code ?? '', /^[a-z_]+$/, `${url}: ${response.body}`);
      }
    });
  });
}
