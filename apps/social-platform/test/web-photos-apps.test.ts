import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import sharp from 'sharp';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { signUp } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const png = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();

const iframeOf = (page: string) => {
  const match = /<iframe[^>]*src="([^"]+)"[^>]*sandbox="([^"]+)"/.exec(page);
  assert.ok(match, 'the canvas page has an iframe');
  return { src: new URL(match[1]!.replaceAll('&amp;', '&')), sandbox: match[2]! };
};

for (const target of databaseTargets()) {
  describe(`web pages: photos, apps and the canvas (${target.name})`, { skip: target.skip }, () => {
    it('uploads a photo into the gallery and a profile picture into the profile', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await ada.get('/photos');
        const uploaded = await ada.upload(
          '/photos',
          { field: 'photo', name: 'lake.png', type: 'image/png', data: await png() },
          { name: 'The lake', visibility: 'friends' },
        );
        assert.equal(uploaded.statusCode, 303, uploaded.body);
        const gallery = await ada.get('/photos');
        assert.match(gallery.body, /Photo uploaded/);
        assert.match(gallery.body, new RegExp(`<img src="${PUBLIC_URL}/media/[^"]+" alt="The lake"`));
        assert.match(gallery.body, /\(friends\)/);

        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        assert.match(
          (await bob.get('/u/ada/photos')).body,
          /No photos yet/,
          'friends-only photo hidden from strangers',
        );

        await ada.get('/u/ada');
        const picture = await ada.upload('/profile/picture', {
          field: 'picture',
          name: 'me.png',
          type: 'image/png',
          data: await png(),
        });
        assert.equal(picture.statusCode, 303, picture.body);
        assert.match(
          (await ada.get('/u/ada')).body,
          /<img class="avatar avatar-120" src="https:\/\/platform\.test\/media\//,
        );
      }));

    it('explains a refused upload on the page and keeps the gallery as it was', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await ada.get('/photos');
        const text = await ada.upload('/photos', {
          field: 'photo',
          name: 'notes.png',
          type: 'image/png',
          data: Buffer.from('plain text, not an image'),
        });
        assert.equal(text.statusCode, 415);
        assert.match(text.body, /class="form-error" role="alert">The file is not an image/);
        const none = await ada.upload('/photos', {
          field: 'photo',
          name: '',
          type: 'application/octet-stream',
          data: Buffer.alloc(0),
        });
        assert.equal(none.statusCode, 400);
        assert.match(none.body, /Choose a photo to upload/);
        const visibility = await ada.upload(
          '/photos',
          { field: 'photo', name: 'a.png', type: 'image/png', data: await png() },
          { visibility: 'everyone' },
        );
        assert.equal(visibility.statusCode, 400);
        const forged = await ada.upload(
          '/photos',
          { field: 'photo', name: 'a.png', type: 'image/png', data: await png() },
          {},
          'forged',
        );
        assert.equal(forged.statusCode, 403);
        const notMultipart = await ada.post('/photos', { name: 'x' });
        assert.equal(notMultipart.statusCode, 415);
        const user = await t.ctx.users.findByUserName('ada');
        assert.equal((await t.ctx.photos.list(user!.id, user!.id, { page: 1, perPage: 10 })).total, 0);
      }));

    it('registers an app in the developer area, refusing bad names and canvas URLs', () =>
      withApp(target, async (t) => {
        const dev = await signUp(t.app, { userName: 'dev', fullName: 'Dee Veloper' });
        await dev.get('/developer');
        const empty = await dev.post('/developer/apps', { name: ' ', canvasUrl: '' });
        assert.equal(empty.statusCode, 400);
        assert.match(empty.body, /id="field-name-error">Give your app a name/);
        assert.match(empty.body, /id="field-canvasUrl-error">Enter the address/);
        for (const canvasUrl of ['javascript:alert(1)', 'ftp://files.example/', `${PUBLIC_URL}/evil`, 'not a url']) {
          const refused = await dev.post('/developer/apps', { name: 'Quiz', canvasUrl });
          assert.equal(refused.statusCode, 400, canvasUrl);
          assert.match(refused.body, /id="field-canvasUrl-error"/, canvasUrl);
          assert.match(refused.body, /value="Quiz"/, 'the name is kept');
        }
        const created = await dev.post('/developer/apps', {
          name: 'Quiz',
          canvasUrl: 'https://quiz.example/canvas?lang=en',
        });
        assert.equal(created.statusCode, 303);
        const id = Number(/created=(\d+)/.exec(String(created.headers.location))?.[1]);
        const page = await dev.get(String(created.headers.location));
        assert.match(page.body, new RegExp(`data-testid="app-id"><strong>${id}</strong>`));
        assert.match(page.body, /https:\/\/quiz\.example\/canvas\?lang=en/);
        assert.doesNotMatch((await dev.get('/apps')).body, new RegExp(`href="/apps/${id}"`), 'in development mode');
        await dev.get(`/developer/apps/${id}`);
        await dev.post(`/developer/apps/${id}/publish`, { value: '1' });
        assert.match((await dev.get('/apps')).body, new RegExp(`href="/apps/${id}"`));
      }));

    it('frames the app with a fresh one-time key per opening, sandboxed, and only that origin', () =>
      withApp(target, async (t) => {
        const dev = await t.user('dev');
        const application = await t.ctx.apps.create({
          name: 'Quiz',
          canvasUrl: 'https://quiz.example/canvas?lang=en',
          ownerId: dev.id,
          published: true,
        });
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await ada.get(`/apps/${application.id}`);
        await ada.post(`/apps/${application.id}/allow`, {});
        const first = await ada.get(`/apps/${application.id}`);
        assert.equal(first.statusCode, 200);
        const frame = iframeOf(first.body);
        assert.equal(frame.src.origin, 'https://quiz.example');
        assert.equal(frame.src.pathname, '/canvas');
        assert.equal(frame.src.searchParams.get('lang'), 'en');
        assert.equal(frame.src.searchParams.get('app_id'), String(application.id));
        assert.equal(frame.sandbox, 'allow-scripts allow-forms allow-same-origin allow-popups');
        const csp = String(first.headers['content-security-policy']);
        assert.match(csp, /frame-src https:\/\/quiz\.example(;|$)/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.equal(first.headers['cache-control'], 'no-store');

        const second = iframeOf((await ada.get(`/apps/${application.id}`)).body);
        const firstKey = frame.src.searchParams.get('key')!;
        const secondKey = second.src.searchParams.get('key')!;
        assert.notEqual(firstKey, secondKey);
        const exchanged = await t.app.inject({ url: '/token.php', query: { key: secondKey } });
        assert.equal(exchanged.statusCode, 200);
        const { token } = exchanged.json();
        const me = await t.app.inject({ url: '/api.php', query: { token, method: 'user.getUser' } });
        assert.equal(me.json().output.user_name, 'ada', 'the key acts for the person who opened the app');
        const replayed = await t.app.inject({ url: '/token.php', query: { key: secondKey } });
        assert.equal(replayed.statusCode, 401);
      }));

    it('refuses to frame a missing app or one whose canvas is on the platform itself', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        assert.equal((await ada.get('/apps/999')).statusCode, 404);
        assert.equal((await ada.get('/apps/abc')).statusCode, 400);
        const dev = await t.user('dev');
        const sneaky = await t.ctx.apps.create({
          name: 'Sneaky',
          canvasUrl: `${PUBLIC_URL}/u/ada`,
          ownerId: dev.id,
          published: true,
        });
        const refused = await ada.get(`/apps/${sneaky.id}`);
        assert.equal(refused.statusCode, 409);
        assert.doesNotMatch(refused.body, /<iframe/);
      }));
  });
}
