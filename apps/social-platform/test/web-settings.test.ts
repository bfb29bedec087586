import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { solidJpeg } from './upload-helpers.ts';
import { signUp, type WebClient } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && !entry.parentPath.includes('.incoming')).length;
}

/** Uploads a photo through the gallery form and returns its id (from the gallery's link to it). */
async function uploadPhoto(client: WebClient, name: string, visibility = 'public'): Promise<number> {
  await client.get('/photos');
  const posted = await client.upload(
    '/photos',
    { field: 'photo', name: `${name}.jpg`, type: 'image/jpeg', data: await solidJpeg(640, 480) },
    { name, visibility },
  );
  assert.equal(posted.statusCode, 303, posted.body);
  const gallery = (await client.get('/photos')).body;
  const id = new RegExp(`<a href="/photos/(\\d+)"><img src="[^"]+" alt="${name}"`).exec(gallery)?.[1];
  assert.ok(id, `the gallery links to ${name}`);
  return Number(id);
}

for (const target of databaseTargets()) {
  describe(`web pages: profile editing, friends-list visibility, deleting photos (${target.name})`, {
    skip: target.skip,
  }, () => {
    it('edits one’s name, country and gender; empty optional fields are unset; bad input is explained', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const page = await ada.get('/settings');
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /value="Ada Lovelace"/);
        assert.match((await ada.get('/u/ada')).body, /href="\/settings">Edit profile</);

        const saved = await ada.post('/settings/profile', {
          fullName: 'Augusta Ada King',
          countryIso: 'gb',
          gender: 'female',
        });
        assert.equal(saved.statusCode, 303);
        assert.equal(saved.headers.location, '/settings');
        assert.match((await ada.get('/settings')).body, /Your profile is saved\./);
        const profile = (await ada.get('/u/ada')).body;
        assert.match(profile, /<h1>Augusta Ada King<\/h1>/);
        assert.match(profile, /<dd>GB<\/dd>/);
        const user = (await t.ctx.users.findByUserName('ada'))!;
        assert.equal(user.full_name, 'Augusta Ada King');
        assert.equal(user.country_iso, 'GB');
        assert.equal(user.gender, 'female');

        const cleared = await ada.post('/settings/profile', { fullName: 'Ada', countryIso: '', gender: ' ' });
        assert.equal(cleared.statusCode, 303);
        const after = (await t.ctx.users.findByUserName('ada'))!;
        assert.equal(after.country_iso, null);
        assert.equal(after.gender, null);
        // The Application API reports the unset fields as null.
        const { body } = await t.call({ token: await t.tokenFor(after.id), method: 'user.getUser' });
        assert.equal(body.output.full_name, 'Ada');
        assert.equal(body.output.country_iso, null);
        assert.equal(body.output.gender, null);

        const refused = await ada.post('/settings/profile', { fullName: '', countryIso: 'Germany', gender: '' });
        assert.equal(refused.statusCode, 400);
        assert.match(refused.body, /Please correct the fields marked below\./);
        assert.match(refused.body, /Must be a two-letter country code\./);
        assert.match(refused.body, /value="Germany"/, 'what was typed stays in the form');
        assert.equal((await t.ctx.users.findByUserName('ada'))!.full_name, 'Ada', 'nothing saved');

        const withNul = await ada.post('/settings/profile', { fullName: 'A\u0000da', countryIso: '', gender: '' });
        assert.equal(withNul.statusCode, 400);
        const forged = await ada.post('/settings/profile', { _csrf: 'forged', fullName: 'Mallory' });
        assert.equal(forged.statusCode, 403);
        assert.equal((await t.ctx.users.findByUserName('ada'))!.full_name, 'Ada');
        const anonymous = await t.app.inject({ method: 'GET', url: '/settings' });
        assert.equal(anonymous.statusCode, 303);
        assert.equal(anonymous.headers.location, '/login?next=%2Fsettings');
      }));

    it('sets who may see one’s friends list, and the API and the profile page follow it', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const adaUser = (await t.ctx.users.findByUserName('ada'))!;
        const friend = await t.user('friend');
        const stranger = await t.user('stranger');
        await t.ctx.friends.befriend(adaUser.id, friend.id);
        const friendsOf = async (viewerId: number) =>
          t.call({ token: await t.tokenFor(viewerId), method: 'friend.getFriends', user_id: adaUser.id });

        assert.match((await ada.get('/settings')).body, /value="public" checked/);
        assert.equal((await friendsOf(stranger.id)).status, 200);

        assert.equal((await ada.post('/settings/friends-visibility', { visibility: 'friends' })).statusCode, 303);
        assert.match((await ada.get('/settings')).body, /Who can see your friends list is saved\./);
        assert.match(ada.lastPage, /value="friends" checked/);
        assert.equal((await friendsOf(friend.id)).status, 200);
        const hidden = await friendsOf(stranger.id);
        assert.equal(hidden.status, 403);
        assert.equal(hidden.body.output.error.code, 'permission_denied');

        assert.equal((await ada.post('/settings/friends-visibility', { visibility: 'private' })).statusCode, 303);
        assert.equal((await friendsOf(friend.id)).status, 403);
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        assert.doesNotMatch((await bob.get('/u/ada')).body, /profile-friends-heading/, 'no friends section');

        const refused = await ada.post('/settings/friends-visibility', { visibility: 'everyone' });
        assert.equal(refused.statusCode, 400);
        assert.match(refused.body, /Choose who may see your friends list\./);
        assert.equal((await t.ctx.users.findByUserName('ada'))!.friends_visibility, 'private');
      }));

    it('deletes one’s photo with its files; nobody else can delete it', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const filesBefore = await countFiles(t.ctx.mediaDir).catch(() => 0);
        const photoId = await uploadPhoto(ada, 'Harbour');
        assert.equal(await countFiles(t.ctx.mediaDir), filesBefore + 7);
        const page = await ada.get(`/photos/${photoId}`);
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /<h1>Harbour<\/h1>/);
        assert.match(page.body, /Delete photo/);

        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        assert.equal((await bob.get(`/photos/${photoId}`)).statusCode, 404);
        await bob.get('/photos');
        assert.equal((await bob.post(`/photos/${photoId}/delete`, {})).statusCode, 404);
        assert.equal((await bob.post(`/photos/${photoId}/visibility`, { visibility: 'private' })).statusCode, 404);
        assert.ok(await t.ctx.photos.findById(photoId), 'still there');
        const forged = await ada.post(`/photos/${photoId}/delete`, { _csrf: 'forged' });
        assert.equal(forged.statusCode, 403);
        assert.ok(await t.ctx.photos.findById(photoId), 'still there');

        await ada.get(`/photos/${photoId}`);
        const deleted = await ada.post(`/photos/${photoId}/delete`, {});
        assert.equal(deleted.statusCode, 303);
        assert.equal(deleted.headers.location, '/photos');
        const gallery = (await ada.get('/photos')).body;
        assert.match(gallery, /Photo deleted\./);
        assert.match(gallery, /No photos yet/);
        assert.equal(await t.ctx.photos.findById(photoId), undefined);
        assert.equal(await countFiles(t.ctx.mediaDir), filesBefore, 'its seven files are gone');
        assert.equal((await ada.get(`/photos/${photoId}`)).statusCode, 404);
      }));

    it('changes who may see a photo; a public one made private leaves its old URL behind', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const photoId = await uploadPhoto(ada, 'Garden');
        const publicUrl = (await t.ctx.photos.findById(photoId))!.files['240px']!.url;
        assert.equal((await t.app.inject(publicUrl.slice(PUBLIC_URL.length))).statusCode, 200);

        await ada.get(`/photos/${photoId}`);
        const changed = await ada.post(`/photos/${photoId}/visibility`, { visibility: 'private' });
        assert.equal(changed.statusCode, 303);
        const page = (await ada.get(`/photos/${photoId}`)).body;
        assert.match(page, /Who can see the photo is saved\./);
        assert.match(page, /<option value="private" selected>Only me<\/option>/);
        assert.match(page, /src="[^"]+\?expires=\d+&amp;signature=[^"]+"/, 'shown through a signed URL');
        assert.equal((await t.app.inject(publicUrl.slice(PUBLIC_URL.length))).statusCode, 404);
        const refused = await ada.post(`/photos/${photoId}/visibility`, { visibility: 'secret' });
        assert.equal(refused.statusCode, 400);
      }));
  });
}
