import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { solidJpeg } from './upload-helpers.ts';

const PICTURE_FIELDS = { photo_50px: '50px', photo_50px_square: '50px_square', photo_120px: '120px' } as const;

/** The picture's URLs as the photos' own rows name them, read apart from api.php's kept files. */
async function storedUrls(t: TestApp, photoId: number): Promise<Record<string, string>> {
  const files = (await t.ctx.photos.filesOf([photoId])).get(photoId) ?? {};
  return Object.fromEntries(
    [...Object.entries(PICTURE_FIELDS), ['photo_original', 'original'] as const].map(([field, size]) => [
      field,
      files[size]!.url,
    ]),
  );
}

for (const target of databaseTargets()) {
  describe(`user.getUser of a user with a profile picture (${target.name})`, { skip: target.skip }, () => {
    it('answers the same record whether its files are kept or read, and shows a new or removed picture at once', async () => {
      // Long enough that nothing expires during the test: what shows is what the caches hold.
      const t = await createTestApp({ target, env: { USER_CACHE_TTL_MS: '60000', TOKEN_CACHE_TTL_MS: '60000' } });
      try {
        const caller = await t.user('caller');
        const pictured = await t.user('pictured');
        const token = await t.tokenFor(caller.id);
        const getUser = async (userId?: number) =>
          (
            await t.app.inject({
              url: '/api.php',
              query: { token, method: 'user.getUser', ...(userId ? { user_id: String(userId) } : {}) },
            })
          ).body;

        const first = await t.ctx.photos.setProfilePicture(pictured.id, await solidJpeg(300, 200));
        const cold = await getUser(pictured.id);
        assert.equal(await getUser(pictured.id), cold, 'the kept record is written the same way');
        const record = JSON.parse(cold).output;
        assert.deepEqual(
          Object.fromEntries(
            Object.keys(PICTURE_FIELDS)
              .concat('photo_original')
              .map((f) => [f, record[f]]),
          ),
          await storedUrls(t, first.id),
        );
        assert.equal(record.email, null, "another user's email is never given");

        const second = await t.ctx.photos.setProfilePicture(pictured.id, await solidJpeg(120, 120));
        const renewed = JSON.parse(await getUser(pictured.id)).output;
        assert.equal(renewed.photo_120px, (await storedUrls(t, second.id)).photo_120px, 'the new picture at once');
        assert.notEqual(renewed.photo_120px, record.photo_120px);

        await t.ctx.photos.setProfilePicture(caller.id, await solidJpeg(200, 300));
        const own = JSON.parse(await getUser()).output;
        assert.equal(own.email, caller.email, "the token's own user, with the email permission");
        assert.match(own.photo_50px_square, new RegExp(`^${PUBLIC_URL}/media/`));
        assert.equal(await getUser(), JSON.stringify({ api: { total: 1, pages: 1, current_page: 1 }, output: own }));

        await t.ctx.photos.delete(pictured.id, second.id);
        const removed = JSON.parse(await getUser(pictured.id)).output;
        assert.equal(removed.photo_120px, `${PUBLIC_URL}/icons/avatar-120.png`, 'the default avatar again');
      } finally {
        await t.close();
      }
    });

    it('a friends-only album photo as the picture is answered with signed URLs, never kept', async () => {
      const t = await createTestApp({ target, env: { USER_CACHE_TTL_MS: '60000' } });
      try {
        const caller = await t.user('caller');
        const owner = await t.user('owner');
        const token = await t.tokenFor(caller.id);
        const photo = await t.ctx.photos.addPhoto({
          ownerId: owner.id,
          data: await solidJpeg(300, 300),
          visibility: 'friends',
        });
        await t.ctx.users.setPicturePhoto(owner.id, photo.id);
        const answer = await t.call({ token, method: 'user.getUser', user_id: owner.id });
        assert.match(answer.body.output.photo_original, /\?expires=\d+&signature=/);
        assert.equal(t.ctx.photos.keptPictureFiles(photo.id), undefined, 'signed URLs are not kept');
      } finally {
        await t.close();
      }
    });
  });
}
