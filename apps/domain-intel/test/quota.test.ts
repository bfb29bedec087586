import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { appError } from '../src/error-catalogue.ts';
import { ok } from '../src/http/envelope.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

/** Trivial counted routes, so these tests measure the quota pipeline and nothing else. */
async function probeRoutes(v1: FastifyInstance) {
  v1.get('/test/ping', async (request) => ok(request, { pong: true }));
  v1.get('/test/crash', async () => {
    throw new Error('boom');
  });
  v1.get('/test/upstream-down', async () => {
    throw appError('upstream_unavailable', 'The upstream is down.');
  });
  v1.get('/test/bad-input', async () => {
    throw appError('invalid_request', 'Bad input.');
  });
}

const ping = (app: FastifyInstance, key: string) => app.inject({ url: '/v1/test/ping', headers: bearer(key) });

for (const variant of quotaStoreVariants(databaseTargets(), { cluster: true })) {
  describe(`daily quota (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis, extraV1Routes: probeRoutes });
    });
    after(async () => t?.close());

    it('lets exactly 100 of 300 concurrent calls of a Free key through, the rest 429 with headers', async () => {
      const key = await t.keyFor('free');
      const responses = await Promise.all(Array.from({ length: 300 }, () => ping(t.app, key)));
      const passed = responses.filter((response) => response.statusCode === 200);
      const refused = responses.filter((response) => response.statusCode === 429);
      assert.equal(passed.length, 100);
      assert.equal(refused.length, 200);
      const remaining = passed
        .map((response) => Number(response.headers['x-ratelimit-remaining']))
        .sort((a, b) => a - b);
      assert.deepEqual(
        remaining,
        Array.from({ length: 100 }, (_, i) => i),
      );
      for (const response of refused) {
        assert.equal(response.json().error.code, 'quota_exceeded');
        assert.equal(response.headers['x-ratelimit-limit'], '100');
        assert.equal(response.headers['x-ratelimit-remaining'], '0');
        assert.equal(response.headers['retry-after'], String(12 * 3600));
        assert.equal(response.headers['x-ratelimit-reset'], String(Date.parse('2026-03-11T00:00:00Z') / 1000));
      }
    });

    it('is exact across two API instances sharing the store', async () => {
      const second = await t.spawnInstance();
      const key = await t.keyFor('free');
      const responses = await Promise.all(
        Array.from({ length: 300 }, (_, i) => ping(i % 2 === 0 ? t.app : second, key)),
      );
      assert.equal(responses.filter((response) => response.statusCode === 200).length, 100);
      assert.equal(responses.filter((response) => response.statusCode === 429).length, 200);
    });

    it('is exact for several accounts calling at once across two instances, refunds included', async () => {
      const second = await t.spawnInstance();
      const keys = await Promise.all(Array.from({ length: 4 }, () => t.keyFor('free')));
      const call = (i: number, url: string) => {
        const key = keys[i % keys.length]!;
        const instance = Math.floor(i / keys.length) % 2 === 0 ? t.app : second;
        return instance.inject({ url, headers: bearer(key) }).then((response) => ({ key, response }));
      };
      // Calls that crash give their unit back, in a turn with the other accounts' calls.
      const crashed = await Promise.all(Array.from({ length: 3 * keys.length }, (_, i) => call(i, '/v1/test/crash')));
      assert.ok(crashed.every((entry) => entry.response.statusCode === 500));
      // 127 calls per key, the keys interleaved, so the turns hold calls of every account.
      const responses = await Promise.all(
        Array.from({ length: 127 * keys.length }, (_, i) => call(i, '/v1/test/ping')),
      );
      for (const key of keys) {
        const own = responses.filter((entry) => entry.key === key).map((entry) => entry.response.statusCode);
        assert.equal(own.filter((status) => status === 200).length, 100, 'the cap is reached exactly');
        assert.equal(own.filter((status) => status === 429).length, 27);
        const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
        assert.equal(quota.json().data.used, 100);
      }
    });

    it('resets at 00:00 UTC', async () => {
      t.clock.set('2026-03-10T23:59:59Z');
      const key = await t.keyFor('free');
      await Promise.all(Array.from({ length: 100 }, () => ping(t.app, key)));
      const capped = await ping(t.app, key);
      assert.equal(capped.statusCode, 429);
      assert.equal(capped.headers['retry-after'], '1');
      t.clock.set('2026-03-11T00:00:00Z');
      const fresh = await ping(t.app, key);
      assert.equal(fresh.statusCode, 200);
      assert.equal(fresh.headers['x-ratelimit-remaining'], '99');
      t.clock.set('2026-03-10T12:00:00Z');
    });

    it('gives back the unit of a call that failed on our side or upstream, not of a bad request', async () => {
      const key = await t.keyFor('free');
      assert.equal((await t.app.inject({ url: '/v1/test/crash', headers: bearer(key) })).statusCode, 500);
      assert.equal((await t.app.inject({ url: '/v1/test/upstream-down', headers: bearer(key) })).statusCode, 503);
      const badInput = await t.app.inject({ url: '/v1/test/bad-input', headers: bearer(key) });
      assert.equal(badInput.statusCode, 400);
      assert.equal(badInput.headers['x-ratelimit-remaining'], '99', 'error responses carry the headers too');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.used, 1);
    });

    it('does not count /v1/quota, and shows its figures', async () => {
      const key = await t.keyFor('starter');
      await ping(t.app, key);
      for (let i = 0; i < 3; i++) await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.statusCode, 200);
      const data = quota.json().data;
      assert.equal(data.plan, 'starter');
      assert.equal(data.limit, 1000);
      assert.equal(data.used, 1);
      assert.equal(data.remaining, 999);
      assert.equal(data.resets_at, '2026-03-11T00:00:00.000Z');
      assert.equal(data.period_end, '2026-04-10T12:00:00.000Z');
      assert.equal(quota.headers['x-ratelimit-remaining'], '999');
    });

    it('counts Enterprise calls but never refuses them, and says unlimited', async () => {
      const key = await t.keyFor('enterprise');
      const responses = await Promise.all(Array.from({ length: 150 }, () => ping(t.app, key)));
      assert.ok(responses.every((response) => response.statusCode === 200));
      assert.equal(responses[0]!.headers['x-ratelimit-limit'], 'unlimited');
      assert.equal(responses[0]!.headers['x-ratelimit-remaining'], 'unlimited');
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.used, 150);
      assert.equal(quota.json().data.limit, null);
    });
  });
}

describe('Retry-After at several times of day', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, extraV1Routes: probeRoutes });
  });
  after(async () => t?.close());

  const cases: Array<[string, string]> = [
    ['2026-03-10T00:00:00.000Z', '86400'],
    ['2026-03-10T06:30:00.000Z', String(17.5 * 3600)],
    ['2026-03-10T23:59:00.000Z', '60'],
    ['2026-03-10T23:59:59.000Z', '1'],
    ['2026-03-10T23:59:59.900Z', '1'],
  ];
  for (const [time, expected] of cases) {
    it(`is ${expected} s at ${time}`, async () => {
      t.clock.set(time);
      const key = await t.keyFor('free');
      await Promise.all(Array.from({ length: 100 }, () => ping(t.app, key)));
      const response = await ping(t.app, key);
      assert.equal(response.statusCode, 429);
      assert.equal(response.headers['retry-after'], expected);
    });
  }
});

describe("the proxy's request id (QUOTA_REQUEST_ID_HEADER)", () => {
  const quotaUsed = async (app: FastifyInstance, key: string) =>
    (await app.inject({ url: '/v1/quota', headers: bearer(key) })).json().data.used as number;
  const pingWithId = (app: FastifyInstance, key: string, id: string) =>
    app.inject({ url: '/v1/test/ping', headers: { ...bearer(key), 'x-request-id': id } });

  it('counts calls with the same id once when the setting names the header, each call when it is unset', async () => {
    const target = databaseTargets()[0]!;
    const behindProxy = await createTestApp({
      target,
      extraV1Routes: probeRoutes,
      env: { QUOTA_REQUEST_ID_HEADER: 'x-request-id', METRICS_PUBLIC: '1' },
    });
    const direct = await createTestApp({ target, extraV1Routes: probeRoutes });
    try {
      const key = await behindProxy.keyFor('free');
      for (const id of [
        '7F000001:D1-7F000001:6DCF-6B0A3323-0001:549D',
        '7F000001:D1-7F000001:6DCF-6B0A3323-0001:549D',
      ]) {
        assert.equal((await pingWithId(behindProxy.app, key, id)).statusCode, 200);
      }
      assert.equal((await pingWithId(behindProxy.app, key, 'other-call')).statusCode, 200);
      // An id that does not look like one (spaces, two headers joined) is ignored: the call counts.
      assert.equal((await pingWithId(behindProxy.app, key, 'a b')).statusCode, 200);
      assert.equal((await pingWithId(behindProxy.app, key, 'a b')).statusCode, 200);
      assert.equal(await quotaUsed(behindProxy.app, key), 4);
      assert.match((await behindProxy.app.inject('/metrics')).body, /domain_intel_quota_repeated_calls_total 1\n/);

      const directKey = await direct.keyFor('free');
      for (let call = 0; call < 2; call++) await pingWithId(direct.app, directKey, 'same-id');
      assert.equal(await quotaUsed(direct.app, directKey), 2, 'without the setting the header is not read');
    } finally {
      await behindProxy.close();
      await direct.close();
    }
  });
});
