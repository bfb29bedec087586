import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';
import { signUp, type WebClient } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

const frameKey = (page: string) => {
  const match = /<iframe[^>]*src="([^"]+)"/.exec(page);
  return match ? new URL(match[1]!.replaceAll('&amp;', '&')).searchParams.get('key') : null;
};

/** Ada registers "Quiz" through the developer page; returns its APP ID. */
async function registerQuiz(ada: WebClient): Promise<number> {
  await ada.get('/developer');
  const created = await ada.post('/developer/apps', { name: 'Quiz', canvasUrl: 'https://quiz.test/' });
  assert.equal(created.statusCode, 303, created.body);
  return Number(/created=(\d+)/.exec(String(created.headers.location))![1]);
}

for (const target of databaseTargets()) {
  describe(`app consent, permissions and the developer console (${target.name})`, { skip: target.skip }, () => {
    it('asks before the first key, refuses methods outside the grant, asks again for more, and removal kills tokens', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const appId = await registerQuiz(ada);
        await ada.post(`/developer/apps/${appId}/publish`, { value: '1' });

        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        const consent = await bob.get(`/apps/${appId}`);
        assert.equal(consent.statusCode, 200);
        assert.match(consent.body, /Allow/);
        assert.match(consent.body, /Ada Lovelace/, 'names the developer');
        assert.match(consent.body, /data-permission="basic_profile"/);
        assert.equal(frameKey(consent.body), null, 'no key before Allow');
        assert.equal(
          await t.ctx.database.db
            .selectFrom('app_keys')
            .selectAll()
            .execute()
            .then((r) => r.length),
          0,
        );

        assert.equal((await bob.post(`/apps/${appId}/allow`, {})).statusCode, 303);
        const canvas = await bob.get(`/apps/${appId}`);
        const key = frameKey(canvas.body);
        assert.ok(key, 'the canvas has a key after Allow');
        const token = (await t.app.inject({ url: '/token.php', query: { key } })).json().token;
        assert.equal((await t.call({ token, method: 'user.getUser' })).status, 200);
        const mail = await t.call({ token, method: 'mail.getNewCount' });
        assert.equal(mail.status, 403);
        assert.equal(mail.body.output.error.code, 'permission_denied');
        assert.equal(mail.body.output.error.permission, 'mail_count');
        assert.equal((await t.call({ token, method: 'user.getUser' })).body.output.email, null, 'no email permission');

        // The developer asks for more: the old grant no longer covers it, so Bob is asked again.
        await ada.get(`/developer/apps/${appId}`);
        const saved = await ada.post(`/developer/apps/${appId}`, {
          name: 'Quiz',
          description: 'A quiz about your friends',
          iconUrl: '',
          canvasUrl: 'https://quiz.test/',
          permissions: 'basic_profile',
        });
        assert.equal(saved.statusCode, 303, saved.body);
        const body = new URLSearchParams({
          _csrf: ada.csrfToken(),
          name: 'Quiz',
          description: 'A quiz about your friends',
          iconUrl: '',
          canvasUrl: 'https://quiz.test/',
        });
        body.append('permissions', 'basic_profile');
        body.append('permissions', 'mail_count');
        await ada.get(`/developer/apps/${appId}`);
        body.set('_csrf', ada.csrfToken());
        const more = await t.app.inject({
          method: 'POST',
          url: `/developer/apps/${appId}`,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            cookie: [...ada.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          },
          payload: body.toString(),
        });
        assert.equal(more.statusCode, 303, more.body);
        const again = await bob.get(`/apps/${appId}`);
        assert.match(again.body, /now asks for more/);
        assert.match(again.body, /data-permission="mail_count"/);
        assert.equal(frameKey(again.body), null);
        await bob.post(`/apps/${appId}/allow`, {});
        const second = frameKey((await bob.get(`/apps/${appId}`)).body);
        const token2 = (await t.app.inject({ url: '/token.php', query: { key: String(second) } })).json().token;
        assert.equal((await t.call({ token: token2, method: 'mail.getNewCount' })).status, 200);

        // Bob removes the app in his settings: both tokens die at once, and the next opening asks again.
        const settings = await bob.get('/settings/apps');
        assert.match(settings.body, /Quiz/);
        assert.equal((await bob.post(`/settings/apps/${appId}/remove`, {})).statusCode, 303);
        for (const dead of [token, token2]) {
          assert.equal((await t.call({ token: dead, method: 'user.getUser' })).body.output.error.code, 'token_revoked');
        }
        assert.match((await bob.get(`/apps/${appId}`)).body, /Allow/);
        assert.doesNotMatch((await bob.get('/settings/apps')).body, /data-testid="granted-app"/);

        // Usage per method per day, errors included, in the console.
        const console = await ada.get(`/developer/apps/${appId}`);
        assert.match(
          console.body,
          /<code>mail\.getNewCount<\/code><\/td><td>2<\/td><td>1<\/td><td><code>permission_denied<\/code>/,
        );
      }));

    it('keeps an app in development mode to its developer and testers until published', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const appId = await registerQuiz(ada);
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        assert.doesNotMatch((await bob.get('/apps')).body, /Quiz/, 'not in the directory');
        assert.equal((await bob.get(`/apps/${appId}`)).statusCode, 404);
        assert.match((await ada.get(`/apps/${appId}`)).body, /Allow/, 'the developer can open it');
        await ada.get(`/developer/apps/${appId}`);
        assert.equal((await ada.post(`/developer/apps/${appId}/testers`, { userName: 'bob' })).statusCode, 303);
        assert.equal((await bob.get(`/apps/${appId}`)).statusCode, 200, 'a tester can open it');
        await ada.get(`/developer/apps/${appId}`);
        await ada.post(`/developer/apps/${appId}/publish`, { value: '1' });
        assert.match((await bob.get('/apps')).body, /Quiz/);
        // Another person cannot reach Ada's console.
        assert.equal((await bob.get(`/developer/apps/${appId}`)).statusCode, 404);
      }));

    it('disabling or deleting an app kills its tokens', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        const appId = await registerQuiz(ada);
        await ada.post(`/apps/${appId}/allow`, {});
        const tokenOf = async () => {
          const key = frameKey((await ada.get(`/apps/${appId}`)).body);
          return (await t.app.inject({ url: '/token.php', query: { key: String(key) } })).json().token as string;
        };
        const token = await tokenOf();
        await ada.get(`/developer/apps/${appId}`);
        await ada.post(`/developer/apps/${appId}/status`, { value: 'disabled' });
        assert.equal((await t.call({ token, method: 'user.getUser' })).body.output.error.code, 'token_revoked');
        assert.equal((await ada.get(`/apps/${appId}`)).statusCode, 403, 'a disabled app opens for no one');
        await ada.get(`/developer/apps/${appId}`);
        await ada.post(`/developer/apps/${appId}/status`, { value: 'active' });
        assert.equal((await t.call({ token, method: 'user.getUser' })).body.output.error.code, 'token_revoked');
        const fresh = await tokenOf();
        await ada.get(`/developer/apps/${appId}`);
        assert.equal((await ada.post(`/developer/apps/${appId}/delete`, {})).statusCode, 303);
        assert.equal((await t.call({ token: fresh, method: 'user.getUser' })).status, 401);
        assert.equal((await ada.get(`/apps/${appId}`)).statusCode, 404);
      }));

    it('notification.add notifies the token user, needs its permission, and is limited per app and user', () =>
      withApp(target, async (t) => {
        const user = await t.user('listener');
        const token = await t.tokenFor(user.id);
        const post = (message: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api.php',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ token, method: 'notification.add', message }).toString(),
          });
        const first = await post('Your quiz result is in');
        assert.equal(first.statusCode, 200, first.body);
        const list = await t.call({ token, method: 'notification.get' });
        assert.equal(list.body.output[0].message, 'Your quiz result is in');
        assert.match(list.body.output[0].link, /\/apps\/\d+$/);
        for (let index = 1; index < 10; index++) assert.equal((await post(`n${index}`)).statusCode, 200);
        const limited = await post('one too many');
        assert.equal(limited.statusCode, 429);
        assert.equal(limited.json().output.error.code, 'rate_limited');
        assert.equal((await t.call({ token, method: 'notification.add', message: 'x' })).status, 405);
      }));
  });
}
