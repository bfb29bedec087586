import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { type ApiBody, createTestApp, type TestApp } from './helpers.ts';

const batchOf = (calls: unknown) => JSON.stringify(calls);

for (const target of databaseTargets()) {
  describe(`api.php method=batch (${target.name}, ${target.name === 'postgres' ? 'Redis' : 'memory'})`, {
    skip: target.skip,
  }, () => {
    let t: TestApp;
    let token: string;
    let userId: number;
    let friendId: number;
    before(async () => {
      t = await createTestApp({ target, redis: target.name === 'postgres' && !!process.env.REDIS_URL });
      const user = await t.user('batcher');
      const friend = await t.user('friend');
      userId = user.id;
      friendId = friend.id;
      await t.ctx.friends.befriend(user.id, friend.id);
      token = await t.tokenFor(user.id);
    });
    after(() => t.close());

    const batch = async (calls: string, method: 'GET' | 'POST' = 'GET') => {
      const response =
        method === 'GET'
          ? await t.app.inject({ url: '/api.php', query: { token, method: 'batch', calls } })
          : await t.app.inject({
              method: 'POST',
              url: '/api.php',
              payload: new URLSearchParams({ token, method: 'batch', calls }).toString(),
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            });
      return { status: response.statusCode, body: response.json() as ApiBody };
    };

    it('answers one envelope per call, each what the call alone answers, in order', async () => {
      const { status, body } = await batch(
        batchOf([
          { method: 'user.getUser' },
          { method: 'friend.isFriend', params: { friend_user_id: friendId } },
          { method: 'friend.getFriends', params: { page: '1' } },
          { method: 'mail.getNewCount', params: {} },
        ]),
      );
      assert.equal(status, 200);
      assert.deepEqual(body.api, { total: 4, pages: 1, current_page: 1 });
      const alone = [
        (await t.call({ token, method: 'user.getUser' })).body,
        (await t.call({ token, method: 'friend.isFriend', friend_user_id: friendId })).body,
        (await t.call({ token, method: 'friend.getFriends', page: 1 })).body,
        (await t.call({ token, method: 'mail.getNewCount' })).body,
      ];
      assert.equal(body.output[0].output.user_id, userId);
      assert.deepEqual(body.output[1].output, { is_friend: 1 });
      assert.deepEqual(body.output, alone);
    });

    it("answers one call's fault in that call's envelope and runs the others", async () => {
      const { status, body } = await batch(
        batchOf([
          { method: 'no.suchMethod' },
          { method: 'batch', params: { calls: '[]' } },
          'user.getUser',
          { params: {} },
          { method: 'user.getUser', params: { user_id: 'abc' } },
          { method: 'user.getUser', params: { user_id: [1, 2] } },
          { method: 'notification.add', params: { message: 'from a GET batch' } },
          { method: 'photo.addPhoto', params: { photo_name: 'x.jpg' } },
          { method: 'user.getUser', params: { user_id: friendId } },
        ]),
      );
      assert.equal(status, 200);
      const codes = body.output.map((answer: ApiBody) => answer.output.error?.code ?? 'ok');
      assert.deepEqual(codes, [
        'unknown_method',
        'nested_batch',
        'invalid_batch_call',
        'invalid_batch_call',
        'invalid_parameter',
        'invalid_parameter',
        'post_required',
        'not_batchable',
        'ok',
      ]);
      assert.deepEqual(body.output[0].api, { total: 0, pages: 0, current_page: 0 }, 'an error envelope');
      assert.equal(body.output[4].output.error.parameter, 'user_id');
      assert.equal(body.output[8].output.user_id, friendId);
    });

    it('runs a POST-only method in a batch sent as a POST form', async () => {
      const { status, body } = await batch(
        batchOf([
          { method: 'notification.add', params: { message: 'Sent in a batch' } },
          { method: 'notification.getNewCount' },
        ]),
        'POST',
      );
      assert.equal(status, 200);
      assert.equal(body.output[0].output.error, undefined, JSON.stringify(body.output[0]));
      assert.ok(body.output[1].output >= 1);
    });

    it('refuses a malformed batch as a whole, with a catalogued code', async () => {
      const cases: [string | undefined, number, string][] = [
        [undefined, 400, 'missing_parameter'],
        ['{not json', 400, 'invalid_batch'],
        ['{"method":"user.getUser"}', 400, 'invalid_batch'],
        ['[]', 400, 'invalid_batch'],
        [batchOf(Array.from({ length: 26 }, () => ({ method: 'user.getUser' }))), 400, 'batch_too_large'],
      ];
      for (const [calls, status, code] of cases) {
        const response = await t.app.inject({
          url: '/api.php',
          query: { token, method: 'batch', ...(calls === undefined ? {} : { calls }) },
        });
        assert.equal(response.statusCode, status, String(calls));
        const body = response.json() as ApiBody;
        assert.deepEqual(body.api, { total: 0, pages: 0, current_page: 0 });
        assert.equal(body.output.error.code, code, String(calls));
      }
      const full = await batch(batchOf(Array.from({ length: 25 }, () => ({ method: 'user.getUser' }))));
      assert.equal(full.status, 200, '25 calls are allowed');
      assert.equal(full.body.output.length, 25);
    });

    it("checks each call against the app's grant on its own", async () => {
      const owner = await t.user('narrow-dev');
      const narrow = await t.ctx.apps.create({
        name: 'Narrow',
        canvasUrl: 'https://narrow.test/',
        ownerId: owner.id,
        permissions: ['basic_profile'],
        published: true,
      });
      await t.ctx.grants.grant(narrow.id, userId, ['basic_profile']);
      const { token: narrowToken } = await t.ctx.appAuth.exchangeKey(
        await t.ctx.appAuth.issueAppKey(narrow.id, userId),
      );
      const response = await t.app.inject({
        url: '/api.php',
        query: {
          token: narrowToken,
          method: 'batch',
          calls: batchOf([{ method: 'user.getUser' }, { method: 'mail.getNewCount' }]),
        },
      });
      const body = response.json() as ApiBody;
      assert.equal(response.statusCode, 200);
      assert.equal(body.output[0].output.user_id, userId);
      assert.equal(body.output[1].output.error.code, 'permission_denied');
      assert.equal(body.output[1].output.error.permission, 'mail_count');
      const usage = await t.ctx.usage.recent(narrow.id, 1);
      assert.deepEqual(
        usage.map((row) => [row.method, row.calls, row.errors, row.lastErrorCode]),
        [
          ['mail.getNewCount', 1, 1, 'permission_denied'],
          ['user.getUser', 1, 0, null],
        ],
        'each call counted under its own method; the batch itself is not a call',
      );
    });
  });

  describe(`api.php method=batch against the rate limit (${target.name})`, { skip: target.skip }, () => {
    it('counts each call: the calls over the limit answer rate_limited, the first ones run', async () => {
      const t = await createTestApp({
        target,
        redis: target.name === 'postgres' && !!process.env.REDIS_URL,
        env: { API_RATE_LIMIT: '5' },
      });
      try {
        const user = await t.user('limited');
        const token = await t.tokenFor(user.id);
        const response = await t.app.inject({
          url: '/api.php',
          query: {
            token,
            method: 'batch',
            calls: batchOf(Array.from({ length: 7 }, () => ({ method: 'user.getUser' }))),
          },
        });
        assert.equal(response.statusCode, 200);
        const codes = (response.json() as ApiBody).output.map((a: ApiBody) => a.output.error?.code ?? 'ok');
        assert.deepEqual(codes, ['ok', 'ok', 'ok', 'ok', 'ok', 'rate_limited', 'rate_limited']);
        const next = await t.call({ token, method: 'user.getUser' });
        assert.equal(next.status, 429, 'the batch used the window up');
      } finally {
        await t.close();
      }
    });
  });
}
