import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`domain-intel basics (${target.name})`, { skip: target.skip }, () => {
    it('answers health, quota with a key, and 401 without one', async () => {
      const t = await createTestApp({ target });
      try {
        const health = await t.app.inject('/healthz');
        assert.equal(health.statusCode, 200);
        assert.ok(health.headers['x-request-id']);
        const key = await t.keyFor('free');
        const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
        assert.equal(quota.statusCode, 200, quota.body);
        assert.equal(quota.json().data.limit, 100);
        assert.equal(quota.headers['x-ratelimit-limit'], '100');
        const missing = await t.app.inject('/v1/quota');
        assert.equal(missing.statusCode, 401);
        assert.equal(missing.json().error.code, 'missing_key');
      } finally {
        await t.close();
      }
    });
  });
}
