import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets, redisServerSkip, redisTarget } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

async function withApp(target: Parameters<typeof createTestApp>[0]['target'], run: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ target });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

async function appAndUser(t: TestApp) {
  const owner = await t.user('owner');
  const user = await t.user('player');
  const application = await t.ctx.apps.create({
    name: 'Quiz',
    canvasUrl: 'https://quiz.test/',
    ownerId: owner.id,
    permissions: ['basic_profile', 'mail_count'],
    published: true,
  });
  await t.ctx.grants.grant(application.id, user.id, ['basic_profile', 'mail_count']);
  return { user, application };
}

const exchange = (t: TestApp, key: string) => t.app.inject({ url: '/token.php', query: { key } });

for (const target of databaseTargets()) {
  describe(`one-time keys and tokens (${target.name})`, { skip: target.skip }, () => {
    it('refuses a missing, malformed, unknown or repeated key with a code', () =>
      withApp(target, async (t) => {
        const missing = await t.app.inject('/token.php');
        assert.equal(missing.statusCode, 400);
        assert.equal(missing.json().output.error.code, 'missing_key');
        const malformed = await exchange(t, 'not-a-key');
        assert.equal(malformed.statusCode, 401);
        assert.equal(malformed.json().output.error.code, 'invalid_key');
        const unknown = await exchange(t, `spk_${'A'.repeat(43)}`);
        assert.equal(unknown.statusCode, 401);
        assert.equal(unknown.json().output.error.code, 'invalid_key');
        const twice = await t.app.inject({ url: '/token.php?key=a&key=b' });
        assert.equal(twice.statusCode, 400);
      }));

    it('gives {"token"} for a fresh key, bound to the app and user, and stores no secret in clear', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        assert.match(key, /^spk_[A-Za-z0-9_-]{43}$/);
        const response = await exchange(t, key);
        assert.equal(response.statusCode, 200);
        assert.deepEqual(Object.keys(response.json()), ['token']);
        assert.equal(response.headers['cache-control'], 'no-store');
        const { token } = response.json();
        const caller = await t.ctx.appAuth.authenticate(token);
        assert.equal(caller.appId, application.id);
        assert.equal(caller.userId, user.id);
        const keys = await t.ctx.database.db.selectFrom('app_keys').selectAll().execute();
        const tokens = await t.ctx.database.db.selectFrom('api_tokens').selectAll().execute();
        assert.ok(keys.every((row) => !JSON.stringify(row).includes(key.slice(4))));
        assert.ok(tokens.every((row) => !JSON.stringify(row).includes(token.slice(4))));
      }));

    it('of ten parallel exchanges of one key, exactly one gets a token', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        const responses = await Promise.all(Array.from({ length: 10 }, () => exchange(t, key)));
        const succeeded = responses.filter((response) => response.statusCode === 200);
        assert.equal(succeeded.length, 1);
        for (const refused of responses.filter((response) => response.statusCode !== 200)) {
          assert.equal(refused.statusCode, 401);
          assert.equal(refused.json().output.error.code, 'key_already_used');
        }
        const tokens = await t.ctx.database.db.selectFrom('api_tokens').selectAll().execute();
        assert.equal(tokens.length, 1);
      }));

    it('refuses a replayed key and revokes the token it gave', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        const { token } = (await exchange(t, key)).json();
        assert.equal((await t.call({ token, method: 'user.getUser' })).status, 200);
        const replay = await exchange(t, key);
        assert.equal(replay.statusCode, 401);
        assert.equal(replay.json().output.error.code, 'key_already_used');
        const after = await t.call({ token, method: 'user.getUser' });
        assert.equal(after.status, 401);
        assert.equal(after.body.output.error.code, 'token_revoked');
      }));

    it('answers a change made on this instance at the next call, though token rows are reused', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const { token } = (await exchange(t, await t.ctx.appAuth.issueAppKey(application.id, user.id))).json();
        assert.equal((await t.call({ token, method: 'user.getUser' })).status, 200);
        await t.ctx.users.updateProfile(user.id, { fullName: 'Renamed Right Away' });
        const renamed = await t.call({ token, method: 'user.getUser' });
        assert.equal(renamed.body.output.full_name, 'Renamed Right Away');
        await t.ctx.apps.setStatus(application.id, 'disabled');
        const disabled = await t.call({ token, method: 'user.getUser' });
        assert.equal(disabled.status, 403);
        assert.equal(disabled.body.output.error.code, 'app_disabled');
      }));

    it('lets a key expire after KEY_TTL_SECONDS', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        t.clock.advance(300_000);
        const response = await exchange(t, key);
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().output.error.code, 'key_expired');
      }));

    it('gives one token per exchange: two devices keep two tokens; a replay revokes only its own', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const phoneKey = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        const phone = (await exchange(t, phoneKey)).json().token;
        const laptop = (await exchange(t, await t.ctx.appAuth.issueAppKey(application.id, user.id))).json().token;
        assert.notEqual(phone, laptop);
        assert.equal((await t.call({ token: phone, method: 'user.getUser' })).status, 200);
        assert.equal((await t.call({ token: laptop, method: 'user.getUser' })).status, 200);
        assert.equal((await exchange(t, phoneKey)).json().output.error.code, 'key_already_used');
        assert.equal((await t.call({ token: phone, method: 'user.getUser' })).body.output.error.code, 'token_revoked');
        assert.equal(
          (await t.call({ token: laptop, method: 'user.getUser' })).status,
          200,
          'the other device keeps working',
        );
        t.clock.advance(3_600_000);
        const expired = await t.call({ token: laptop, method: 'user.getUser' });
        assert.equal(expired.status, 401);
        assert.equal(expired.body.output.error.code, 'token_expired');
      }));

    it('refuses api.php without a valid token, with 401 and a code', () =>
      withApp(target, async (t) => {
        const missing = await t.call({ method: 'user.getUser' });
        assert.equal(missing.status, 401);
        assert.equal(missing.body.output.error.code, 'missing_token');
        assert.deepEqual(missing.body.api, { total: 0, pages: 0, current_page: 0 });
        const malformed = await t.call({ token: 'nope', method: 'user.getUser' });
        assert.equal(malformed.status, 401);
        assert.equal(malformed.body.output.error.code, 'invalid_token');
        const unknown = await t.call({ token: `spt_${'B'.repeat(43)}`, method: 'user.getUser' });
        assert.equal(unknown.status, 401);
        assert.equal(unknown.body.output.error.code, 'invalid_token');
      }));

    it('refuses keys and tokens of a disabled app', () =>
      withApp(target, async (t) => {
        const { user, application } = await appAndUser(t);
        const token = (await exchange(t, await t.ctx.appAuth.issueAppKey(application.id, user.id))).json().token;
        await t.ctx.apps.setStatus(application.id, 'disabled');
        const call = await t.call({ token, method: 'user.getUser' });
        assert.equal(call.status, 403);
        assert.equal(call.body.output.error.code, 'app_disabled');
        await assert.rejects(t.ctx.appAuth.issueAppKey(application.id, user.id), { code: 'app_disabled' });
      }));

    it('accepts token and method in a POST form body', () =>
      withApp(target, async (t) => {
        const user = await t.user('former');
        const token = await t.tokenFor(user.id);
        const response = await t.app.inject({
          method: 'POST',
          url: '/api.php',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ token, method: 'user.getUser' }).toString(),
        });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.json().output.user_id, user.id);
      }));
  });
}

const [sqliteTarget] = databaseTargets();
for (const redis of [false, true, 'cluster'] as const) {
  const skip = redis === 'cluster' ? redisServerSkip() : redis ? redisTarget().skip : false;
  const where = redis === 'cluster' ? 'Redis Cluster' : redis ? 'Redis' : 'in memory';
  describe(`per app and user rate limit (${where})`, { skip }, () => {
    it('answers 429 with Retry-After in the header and the envelope', async () => {
      const t = await createTestApp({
        target: sqliteTarget!,
        redis,
        env: { API_RATE_LIMIT: '3', API_RATE_WINDOW_SECONDS: '60' },
      });
      try {
        const user = await t.user('busy');
        const token = await t.tokenFor(user.id);
        for (let call = 0; call < 3; call++) {
          assert.equal((await t.call({ token, method: 'mail.getNewCount' })).status, 200);
        }
        const limited = await t.app.inject({ url: '/api.php', query: { token, method: 'mail.getNewCount' } });
        assert.equal(limited.statusCode, 429);
        assert.equal(limited.json().output.error.code, 'rate_limited');
        assert.ok(Number(limited.headers['retry-after']) > 0);
        assert.equal(limited.json().output.error.retry_after, Number(limited.headers['retry-after']));
        // A fresh token of the same app and user shares the budget; another user has their own.
        const again = await t.tokenFor(user.id);
        assert.equal((await t.call({ token: again, method: 'mail.getNewCount' })).status, 429);
        const other = await t.tokenFor((await t.user('calm')).id);
        assert.equal((await t.call({ token: other, method: 'mail.getNewCount' })).status, 200);
      } finally {
        await t.close();
      }
    });
  });
}

describe('token.php limit per app', () => {
  it("counts usable keys per app; unknown keys never use up a valid key's budget", async () => {
    const t = await createTestApp({
      target: sqliteTarget!,
      env: { TOKEN_EXCHANGE_LIMIT: '2', TOKEN_EXCHANGE_WINDOW_SECONDS: '60' },
    });
    try {
      const { user, application } = await appAndUser(t);
      // A flood of failures from the same address first.
      for (let attempt = 0; attempt < 20; attempt++) {
        assert.equal((await exchange(t, `spk_${String(attempt).padStart(43, 'x')}`)).statusCode, 401);
      }
      for (let device = 0; device < 2; device++) {
        const key = await t.ctx.appAuth.issueAppKey(application.id, user.id);
        assert.equal((await exchange(t, key)).statusCode, 200);
      }
      const third = await exchange(t, await t.ctx.appAuth.issueAppKey(application.id, user.id));
      assert.equal(third.statusCode, 429);
      assert.equal(third.json().output.error.code, 'rate_limited');
      assert.ok(Number(third.headers['retry-after']) > 0);
      // Another app has its own budget.
      const other = await t.ctx.apps.create({ name: 'Other', canvasUrl: 'https://other.test/', ownerId: user.id });
      await t.ctx.grants.grant(other.id, user.id, ['basic_profile']);
      assert.equal((await exchange(t, await t.ctx.appAuth.issueAppKey(other.id, user.id))).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});

describe('expired key and token purge', () => {
  it('deletes keys and tokens a day after they expired, and nothing younger', async () => {
    const t = await createTestApp({ target: sqliteTarget! });
    try {
      const { user, application } = await appAndUser(t);
      await exchange(t, await t.ctx.appAuth.issueAppKey(application.id, user.id));
      await t.ctx.appAuth.issueAppKey(application.id, user.id);
      assert.equal(await t.ctx.appAuth.purgeExpired(), 0);
      t.clock.advance(3_600_000 + 86_400_000 + 1);
      const fresh = await t.ctx.appAuth.issueAppKey(application.id, user.id);
      assert.equal(await t.ctx.appAuth.purgeExpired(), 3);
      assert.equal((await exchange(t, fresh)).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
