import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrl } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`platform smoke (${target.name})`, { skip: target.skip }, () => {
    it('trades a key for a token and answers user.getUser, health and readiness', async () => {
      const t = await createTestApp({ target });
      try {
        const alice = await t.user('alice', { countryIso: 'fr', gender: 'female' });
        const token = await t.tokenFor(alice.id);
        const { status, body } = await t.call({ token, method: 'user.getUser' });
        assert.equal(status, 200, JSON.stringify(body));
        assert.deepEqual(body.api, { total: 1, pages: 1, current_page: 1 });
        assert.equal(body.output.user_id, alice.id);
        assert.equal((await t.app.inject('/healthz')).statusCode, 200);
        assert.equal((await t.app.inject('/readyz')).json().checks.database, 'ok');
        const icon = await t.app.inject('/icons/notification.png');
        assert.equal(icon.headers['content-type'], 'image/png');
      } finally {
        await t.close();
      }
    });
  });
}

describe('platform documentation and hygiene', () => {
  it('serves an OpenAPI document of token.php and api.php with every method and error code', async () => {
    const t = await createTestApp({ target: databaseTargets()[0]! });
    try {
      const response = await t.app.inject('/openapi.json');
      assert.equal(response.statusCode, 200);
      const document = response.json();
      assert.ok(document.paths['/token.php'].get);
      const api = document.paths['/api.php'].get;
      const method = api.parameters.find((parameter: { name: string }) => parameter.name === 'method');
      assert.deepEqual(method.schema.enum, [
        'batch',
        'friend.getFriends',
        'friend.isFriend',
        'mail.getNewCount',
        'notification.add',
        'notification.get',
        'notification.getNewCount',
        'photo.addPhoto',
        'photo.getPhotos',
        'user.getUser',
      ]);
      for (const code of ['invalid_token', 'permission_denied', 'rate_limited', 'unsupported_image_type']) {
        assert.ok(api.description.includes(code), code);
      }
    } finally {
      await t.close();
    }
  });

  it('keeps keys and tokens out of logged URLs', () => {
    const logged = redactUrl('/api.php?token=spt_secret&method=user.getUser');
    assert.ok(!logged.includes('spt_secret'));
    assert.ok(!redactUrl('/token.php?key=spk_secret').includes('spk_secret'));
  });
});

describe('platform /metrics', () => {
  it('does not exist by default, is public with METRICS_PUBLIC=1, and needs the bearer METRICS_TOKEN when set', async () => {
    const token = 'platform-scraper-token-0123';
    const closed = await createTestApp({ target: databaseTargets()[0]! });
    const open = await createTestApp({ target: databaseTargets()[0]!, env: { METRICS_PUBLIC: '1' } });
    const guarded = await createTestApp({ target: databaseTargets()[0]!, env: { METRICS_TOKEN: token } });
    try {
      assert.equal((await closed.app.inject('/metrics')).statusCode, 404);
      const shown = await open.app.inject('/metrics');
      assert.equal(shown.statusCode, 200);
      assert.match(shown.body, /social_platform_http_requests_total|social_platform_process_/);
      const refused = await guarded.app.inject('/metrics');
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().output.error.code, 'invalid_metrics_token');
      const wrong = await guarded.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer not-the-token-000' },
      });
      assert.equal(wrong.statusCode, 401);
      const allowed = await guarded.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      assert.equal(allowed.statusCode, 200);
      assert.match(allowed.body, /social_platform_/);
    } finally {
      await Promise.all([closed.close(), open.close(), guarded.close()]);
    }
  });
});
