import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { Visibility } from '../src/db/schema.ts';
import type { User } from '../src/users/users-service.ts';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { multipartBody, solidJpeg } from './upload-helpers.ts';
import { signUp } from './web-client.ts';

const HOUR_MS = 3_600_000;

/** The path and query of a platform URL, for app.inject. */
const local = (url: string) => {
  assert.ok(url.startsWith(`${PUBLIC_URL}/media/`), url);
  return url.slice(PUBLIC_URL.length);
};

for (const target of databaseTargets()) {
  describe(`who may fetch a photo's files (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let owner: User;
    let friend: User;
    let stranger: User;

    before(async () => {
      t = await createTestApp({ target, env: { MEDIA_URL_TTL_SECONDS: '3600' } });
      owner = await t.user('owner');
      friend = await t.user('friend');
      stranger = await t.user('stranger');
      await t.ctx.friends.befriend(owner.id, friend.id);
    });
    after(() => t.close());

    const upload = async (visibility: Visibility) => {
      const body = await multipartBody(
        { token: await t.tokenFor(owner.id), method: 'photo.addPhoto', visibility, photo_name: visibility },
        { name: `${visibility}.jpg`, type: 'image/jpeg', data: await solidJpeg(600, 400) },
      );
      const response = await t.app.inject({ method: 'POST', url: '/api.php', ...body });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().output as { photo_id: number; original: string; '240px': string };
    };

    /** The photos of the owner that `viewer` is given by photo.getPhotos, by name (a fresh token: the clock moves). */
    const photosSeenBy = async (viewer: User) => {
      const token = await t.tokenFor(viewer.id);
      const { body } = await t.call({ token, method: 'photo.getPhotos', user_id: owner.id });
      return new Map<string, { photo_240px: string }>(
        body.output.map((photo: { name: string; photo_240px: string }) => [photo.name, photo]),
      );
    };

    const fetchMedia = (url: string) => t.app.inject(local(url));

    it('public photos keep a permanent URL that anyone may cache for a year', async () => {
      const uploaded = await upload('public');
      assert.doesNotMatch(uploaded.original, /\?/, 'no signature on a public photo');
      const response = await fetchMedia(uploaded['240px']);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'image/jpeg');
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
      const seen = await photosSeenBy(stranger);
      assert.equal(seen.get('public')?.photo_240px, uploaded['240px']);
    });

    it('a private photo is served only through its signed URL, privately, to the browser that asked', async () => {
      const uploaded = await upload('private');
      const signed = new URL(uploaded['240px']);
      assert.ok(signed.searchParams.get('expires'), 'expires is in the URL');
      assert.ok(signed.searchParams.get('signature'), 'signature is in the URL');
      const response = await fetchMedia(uploaded['240px']);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'image/jpeg');
      const cacheControl = String(response.headers['cache-control']);
      assert.match(cacheControl, /^private, max-age=\d+$/);
      const maxAge = Number(cacheControl.split('=')[1]);
      assert.ok(maxAge >= 3600 && maxAge <= 7200, `cached for the URL's remaining life (${maxAge} s)`);

      // A stranger is never given it, and the bare file address answers as if there were no file.
      assert.equal((await photosSeenBy(stranger)).has('private'), false);
      assert.equal((await photosSeenBy(friend)).has('private'), false);
      const bare = await t.app.inject(signed.pathname);
      assert.equal(bare.statusCode, 404);
      assert.equal(bare.json().output.error.code, 'not_found');
    });

    it('a tampered URL fails: another signature, another expiry, another file', async () => {
      const privatePhoto = await upload('private');
      const other = await upload('friends');
      const signed = new URL(privatePhoto['240px']);
      const expires = signed.searchParams.get('expires')!;
      const signature = signed.searchParams.get('signature')!;
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const attempts = [
        `${signed.pathname}?expires=${expires}&signature=${flipped}`,
        `${signed.pathname}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `${signed.pathname}?expires=${expires}`,
        `${signed.pathname}?expires=soon&signature=${signature}`,
        `${new URL(other['240px']).pathname}?expires=${expires}&signature=${signature}`,
        `${new URL(privatePhoto.original).pathname}?expires=${expires}&signature=${signature}`,
      ];
      for (const attempt of attempts) {
        const response = await t.app.inject(attempt);
        assert.equal(response.statusCode, 403, attempt);
        assert.equal(response.json().output.error.code, 'media_link_invalid', attempt);
      }
    });

    it('a signed URL expires; asking again gives a fresh one', async () => {
      const uploaded = await upload('private');
      t.clock.advance(3 * HOUR_MS);
      const expired = await fetchMedia(uploaded['240px']);
      assert.equal(expired.statusCode, 403);
      assert.equal(expired.json().output.error.code, 'media_link_expired');
      const fresh = (await photosSeenBy(owner)).get('private');
      assert.ok(fresh);
      assert.equal((await fetchMedia(fresh.photo_240px)).statusCode, 200);
    });

    it('a friends-only photo: its friend gets a working signed URL, a stranger gets nothing', async () => {
      await upload('friends');
      const forFriend = (await photosSeenBy(friend)).get('friends');
      assert.ok(forFriend, 'the friend sees it');
      assert.match(forFriend.photo_240px, /[?&]signature=/);
      assert.equal((await fetchMedia(forFriend.photo_240px)).statusCode, 200);
      assert.equal((await photosSeenBy(stranger)).has('friends'), false);
    });

    it('a public photo made private moves to new keys: its old permanent URL leads nowhere', async () => {
      const uploaded = await upload('public');
      const oldFile = t.ctx.storage.url(new URL(uploaded['240px']).pathname.replace('/media/', ''));
      await t.ctx.photos.setVisibility(owner.id, uploaded.photo_id, 'private');
      const old = await fetchMedia(uploaded['240px']);
      assert.equal(old.statusCode, 404);
      assert.equal(existsSync(`${t.ctx.mediaDir}/${new URL(oldFile).pathname.replace('/media/', '')}`), false);
      const photo = await t.ctx.photos.findById(uploaded.photo_id);
      const moved = photo!.files['240px']!.url;
      assert.notEqual(new URL(moved).pathname, new URL(uploaded['240px']).pathname);
      assert.equal((await fetchMedia(moved)).statusCode, 200);
      assert.equal((await t.app.inject(new URL(moved).pathname)).statusCode, 404, 'unsigned: nothing');
      // Back to public: the same (new) address, now permanent and unsigned.
      await t.ctx.photos.setVisibility(owner.id, uploaded.photo_id, 'public');
      const again = (await t.ctx.photos.findById(uploaded.photo_id))!.files['240px']!.url;
      assert.equal(again, `${PUBLIC_URL}${new URL(moved).pathname}`);
      assert.equal((await fetchMedia(again)).headers['cache-control'], 'public, max-age=31536000, immutable');
    });

    it('the web gallery shows private photos through signed URLs to their owner only', async () => {
      const ada = await signUp(t.app, { userName: 'ada-media', fullName: 'Ada Media' });
      await ada.get('/photos');
      const posted = await ada.upload(
        '/photos',
        { field: 'photo', name: 'diary.jpg', type: 'image/jpeg', data: await solidJpeg(500, 300) },
        { name: 'Diary', visibility: 'private' },
      );
      assert.equal(posted.statusCode, 303, posted.body);
      const page = (await ada.get('/photos')).body;
      const src = /<img src="([^"]+)" alt="Diary"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
      assert.ok(src, 'the gallery shows the photo');
      assert.match(src, /\?expires=\d+&signature=/);
      assert.equal((await fetchMedia(src)).statusCode, 200);
      const bob = await signUp(t.app, { userName: 'bob-media', fullName: 'Bob Media' });
      assert.doesNotMatch((await bob.get('/u/ada-media/photos')).body, /Diary/);
    });

    it('unknown and malformed media addresses are 404 in the envelope', async () => {
      for (const path of ['/media/', '/media/aa/nothing/240px.jpg', '/media/.incoming/x.jpg', '/media/a/../b.jpg']) {
        const response = await t.app.inject(path);
        assert.equal(response.statusCode, 404, path);
        assert.equal(response.json().output.error.code, 'not_found', path);
      }
      // A path climbing out of /media/ is another page altogether (the router resolves the dots first).
      assert.equal((await t.app.inject('/media/%2e%2e/x.jpg')).statusCode, 404);
    });
  });
}
