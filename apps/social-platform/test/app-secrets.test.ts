import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';
import { signUp } from './web-client.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

/** token.php's sig, computed here from the definition (not through the platform's code). */
const sigOf = (secret: string, key: string) => createHmac('sha256', secret).update(key).digest('hex');

async function appWithUser(t: TestApp, requireSignedExchange = false) {
  const owner = await t.user('owner');
  const user = await t.user('player');
  const application = await t.ctx.apps.create({
    name: 'Quiz',
    canvasUrl: 'https://quiz.test/',
    ownerId: owner.id,
    permissions: ['basic_profile'],
    published: true,
    requireSignedExchange,
  });
  await t.ctx.grants.grant(application.id, user.id, ['basic_profile']);
  return { owner, user, application };
}

const exchange = (t: TestApp, query: Record<string, string>) => t.app.inject({ url: '/token.php', query });

for (const target of databaseTargets()) {
  describe(`app secrets and signed exchanges (${target.name})`, { skip: target.skip }, () => {
    it('gives each app a secret once, keeps it only sealed, and opens it again for signing', () =>
      withApp(target, async (t) => {
        const { application } = await appWithUser(t);
        assert.match(application.secret, /^sps_[A-Za-z0-9_-]{43}$/);
        const row = await t.ctx.database.db
          .selectFrom('applications')
          .select('secret_sealed')
          .where('id', '=', application.id)
          .executeTakeFirstOrThrow();
        const sealed = row.secret_sealed ?? '';
        assert.ok(sealed.startsWith('v1.'));
        assert.ok(!sealed.includes(application.secret));
        assert.equal(t.ctx.apps.secretOf({ id: application.id, secret_sealed: sealed }), application.secret);
        // Sealed for this APP ID: the same text on another app's row does not open.
        assert.throws(() => t.ctx.apps.secretOf({ id: application.id + 1, secret_sealed: sealed }));
      }));

    it('trades a key with the right sig; a wrong sig is 401 invalid_signature and leaves the key unused', () =>
      withApp(target, async (t) => {
        const { user, application } = await appWithUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        for (const sig of [sigOf('sps_wrong', key), 'not-hex', sigOf(application.secret, `${key} `), 'A'.repeat(64)]) {
          const wrong = await exchange(t, { key, sig });
          assert.equal(wrong.statusCode, 401, sig);
          assert.equal(wrong.json().output.error.code, 'invalid_signature');
        }
        const right = await exchange(t, { key, sig: sigOf(application.secret, key) });
        assert.equal(right.statusCode, 200, right.body);
        assert.deepEqual(Object.keys(right.json()), ['token']);
        const again = await exchange(t, { key, sig: sigOf(application.secret, key) });
        assert.equal(again.json().output.error.code, 'key_already_used');
      }));

    it('keeps the unsigned exchange of apps that do not require it', () =>
      withApp(target, async (t) => {
        const { user, application } = await appWithUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        const response = await exchange(t, { key });
        assert.equal(response.statusCode, 200, response.body);
      }));

    it('an app that requires it: 401 signature_required without sig, the key still usable with it', () =>
      withApp(target, async (t) => {
        const { user, application } = await appWithUser(t, true);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        const unsigned = await exchange(t, { key });
        assert.equal(unsigned.statusCode, 401);
        assert.equal(unsigned.json().output.error.code, 'signature_required');
        const empty = await exchange(t, { key, sig: '' });
        assert.equal(empty.json().output.error.code, 'signature_required');
        const wrong = await exchange(t, { key, sig: sigOf('sps_other', key) });
        assert.equal(wrong.json().output.error.code, 'invalid_signature');
        const twice = await t.app.inject({ url: `/token.php?key=${key}&sig=a&sig=b` });
        assert.equal(twice.statusCode, 400);
        assert.equal((await exchange(t, { key, sig: sigOf(application.secret, key) })).statusCode, 200);
        // An unknown key is still invalid_key, signed or not: nothing is said about apps.
        const unknown = await exchange(t, { key: `spk_${'A'.repeat(43)}`, sig: sigOf(application.secret, key) });
        assert.equal(unknown.json().output.error.code, 'invalid_key');
      }));

    it('rotating the secret makes signatures with the old one invalid at once', () =>
      withApp(target, async (t) => {
        const { user, application } = await appWithUser(t, true);
        const rotated = await t.ctx.apps.rotateSecret(application.id);
        assert.notEqual(rotated, application.secret);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        assert.equal((await exchange(t, { key, sig: sigOf(application.secret, key) })).statusCode, 401);
        assert.equal((await exchange(t, { key, sig: sigOf(rotated, key) })).statusCode, 200);
      }));

    it('signs the canvas launch: app_id, key, platform_origin, ts, user_id and sign over them, sorted', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await ada.get('/developer');
        const created = await ada.post('/developer/apps', {
          name: 'Quiz',
          canvasUrl: 'https://quiz.test/play?lang=en',
        });
        const appId = Number(/created=(\d+)/.exec(String(created.headers.location))![1]);
        // The secret is shown once, on the page the new app's row links to.
        const list = await ada.get(`/developer?created=${appId}`);
        assert.match(list.body, /Copy its secret now/);
        const shown = await ada.get(`/developer/apps/${appId}/credentials`);
        const secret = /data-testid="app-secret">([^<]+)</.exec(shown.body)?.[1];
        assert.match(secret ?? '', /^sps_/);
        const later = await ada.get(`/developer/apps/${appId}/credentials`);
        assert.doesNotMatch(later.body, /data-testid="app-secret"/);

        await ada.post(`/apps/${appId}/allow`, {});
        const canvas = await ada.get(`/apps/${appId}`);
        const src = /<iframe[^>]*src="([^"]+)"/.exec(canvas.body)![1]!.replaceAll('&amp;', '&');
        const url = new URL(src);
        const query = url.searchParams;
        assert.equal(query.get('lang'), 'en');
        assert.equal(query.get('app_id'), String(appId));
        const adaUser = await t.ctx.users.findByUserName('ada');
        assert.equal(query.get('user_id'), String(adaUser!.id));
        assert.equal(query.get('ts'), String(Math.floor(t.clock.now() / 1000)));
        // Written out by hand from the guide's definition: the five names in byte order, values as decoded.
        const text = `app_id=${appId}&key=${query.get('key')}&platform_origin=${query.get('platform_origin')}&ts=${query.get('ts')}&user_id=${adaUser!.id}`;
        assert.equal(query.get('sign'), createHmac('sha256', secret!).update(text).digest('hex'));
      }));

    it('console: rotate shows the new secret once; require signed exchange is a switch', () =>
      withApp(target, async (t) => {
        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await ada.get('/developer');
        const created = await ada.post('/developer/apps', { name: 'Quiz', canvasUrl: 'https://quiz.test/' });
        const appId = Number(/created=(\d+)/.exec(String(created.headers.location))![1]);
        await ada.get(`/developer/apps/${appId}/credentials`);
        assert.equal((await ada.post(`/developer/apps/${appId}/credentials/rotate`, {})).statusCode, 303);
        const page = await ada.get(`/developer/apps/${appId}/credentials`);
        const secret = /data-testid="app-secret">([^<]+)</.exec(page.body)![1]!;
        const app = await t.ctx.apps.getById(appId);
        assert.equal(t.ctx.apps.secretOf(app), secret);

        assert.equal(app.require_signed_exchange, 0);
        await ada.post(`/developer/apps/${appId}/credentials/signing`, { value: '1' });
        assert.equal((await t.ctx.apps.getById(appId)).require_signed_exchange, 1);
        assert.match((await ada.get(`/developer/apps/${appId}/credentials`)).body, /Required:/);
        // Someone else's app is not found.
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        assert.equal((await bob.get(`/developer/apps/${appId}/credentials`)).statusCode, 404);
      }));

    it('gives apps made before secrets one at start (nobody has seen it: the developer rotates)', () =>
      withApp(target, async (t) => {
        const { application } = await appWithUser(t);
        await t.ctx.database.db
          .updateTable('applications')
          .set({ secret_sealed: null })
          .where('id', '=', application.id)
          .execute();
        await t.restart();
        const row = await t.ctx.apps.getById(application.id);
        assert.match(t.ctx.apps.secretOf(row), /^sps_/);
      }));
  });
}
