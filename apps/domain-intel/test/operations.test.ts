import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { startRegistry } from './loopback-registry.ts';

const METRICS_TOKEN = 'scraper-token-0123456789';

describe('operations endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { METRICS_TOKEN } });
  });
  after(async () => t?.close());

  it('serves health, readiness and Prometheus metrics', async () => {
    assert.deepEqual((await t.app.inject('/healthz')).json(), { status: 'ok' });
    const ready = await t.app.inject('/readyz');
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().checks.database, 'ok');
    const key = await t.keyFor('free');
    await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
    await t.app.inject({ url: '/v1/quota' });
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /domain_intel_http_requests_total\{method="GET",route="\/v1\/quota",status="200"\} 1/);
    assert.match(metrics.body, /domain_intel_http_requests_total\{method="GET",route="\/v1\/quota",status="401"\} 1/);
    assert.match(metrics.body, /domain_intel_http_request_duration_seconds_bucket/);
    assert.match(metrics.body, /domain_intel_quota_rejections_total/);
  });

  it("shows what the RDAP plan's last run needed of each registry host against its allowed rate", async () => {
    const scrape = async () =>
      (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    assert.doesNotMatch(await scrape(), /domain_intel_rdap_plan_needed_rate\{/, 'no run yet, no host');
    // As a re-check run (perhaps a worker's) leaves it in the database.
    await t.app.ctx.lifecycle.rateEstimates.save([
      {
        host: 'rdap.verisign.com',
        tlds: ['com', 'net'],
        neededPerSecond: 44.4,
        allowedPerSecond: 10,
        purgeChecks: 80_000,
      },
    ]);
    // Both gauges come from one read of the estimates per scrape.
    const { lifecycle } = t.app.ctx;
    const readEstimates = lifecycle.registryRateEstimates;
    let reads = 0;
    lifecycle.registryRateEstimates = (...args) => {
      reads++;
      return readEstimates.apply(lifecycle, args);
    };
    try {
      const body = await scrape();
      assert.match(body, /domain_intel_rdap_plan_needed_rate\{host="rdap\.verisign\.com"\} 44\.4/);
      assert.match(body, /domain_intel_rdap_plan_allowed_rate\{host="rdap\.verisign\.com"\} 10/);
      assert.equal(reads, 1, 'one read of the estimates for the scrape');
      await scrape();
      assert.equal(reads, 2, 'and a fresh one at the next scrape');
    } finally {
      lifecycle.registryRateEstimates = readEstimates;
    }
  });

  it("shows each RDAP host's effective rate, lowered after a 429, next to its configured rate", async () => {
    const registry = await startRegistry((arrival) => (arrival === 0 ? 429 : 200), { retryAfterSeconds: 1 });
    const own = await createTestApp({
      target: databaseTargets()[0]!,
      env: {
        METRICS_TOKEN,
        RDAP_ALLOW_INSECURE: '1',
        RDAP_BOOTSTRAP_OVERRIDES: JSON.stringify({ com: `http://${registry.host}/` }),
      },
    });
    try {
      const lookup = await own.app.ctx.rdap.lookupDomain('slowed.com', { traffic: 'interactive', registryOnly: true });
      assert.equal(lookup.kind, 'found', 'answered on the retry after the Retry-After');
      const metrics = await own.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const host = registry.host.replaceAll('.', '\\.');
      assert.match(metrics.body, new RegExp(`domain_intel_rdap_effective_rate\\{host="${host}"\\} 5\n`), '10/s halved');
      assert.match(metrics.body, new RegExp(`domain_intel_rdap_configured_rate\\{host="${host}"\\} 10\n`));
    } finally {
      await own.close();
      registry.close();
    }
  });

  it('serves /metrics only with METRICS_TOKEN (401 invalid_metrics_token otherwise)', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789',
      `bearer ${METRICS_TOKEN}`,
      METRICS_TOKEN,
    ]) {
      const refused = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      assert.equal(refused.statusCode, 401, String(authorization));
      assert.equal(refused.json().error.code, 'invalid_metrics_token');
      assert.equal(refused.headers['www-authenticate'], 'Bearer realm="metrics"');
      assert.doesNotMatch(refused.body, /domain_intel_/);
    }
  });

  it('serves the OpenAPI document and the reference pages', async () => {
    const openapi = (await t.app.inject('/openapi.json')).json();
    assert.equal(openapi.openapi, '3.1.0');
    assert.ok(openapi.paths['/v1/quota']);
    assert.ok(openapi.components.securitySchemes.bearer);
    assert.equal((await t.app.inject('/docs/')).statusCode, 200);
    const errors = await t.app.inject('/docs/errors');
    assert.match(errors.body, /id="quota_exceeded"/);
  });

  it('lets browsers on any origin call /v1 with a key (CORS), preflights uncounted, pages excluded', async () => {
    const key = await t.keyFor('free');
    const origin = 'https://registrar-tool.example';
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/quota',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    const call = await t.app.inject({ url: '/v1/quota', headers: { origin, ...bearer(key) } });
    assert.equal(call.statusCode, 200);
    assert.equal(call.headers['access-control-allow-origin'], '*');
    assert.match(String(call.headers['access-control-expose-headers']), /X-RateLimit-Remaining/);
    // Only browsers read CORS headers, and they always send Origin on a cross-origin call.
    const serverSide = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
    assert.equal(serverSide.headers['access-control-allow-origin'], undefined);
    assert.equal(serverSide.headers['access-control-expose-headers'], undefined);
    assert.equal(call.json().data.used, 0, 'neither the preflight nor /v1/quota is counted');
    const page = await t.app.inject({ url: '/signup', headers: { origin } });
    assert.equal(page.headers['access-control-allow-origin'], undefined);
  });

  it('answers unknown routes and methods with the error envelope, never a 500', async () => {
    const unknown = await t.app.inject('/v1/does-not-exist');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error.code, 'not_found');
    const post = await t.app.inject({ method: 'POST', url: '/v1/quota', payload: {} });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
    const traversal = await t.app.inject('/v1/../../etc/passwd');
    assert.ok(traversal.statusCode < 500);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  it('does not exist by default (404), and is public with METRICS_PUBLIC=1', async () => {
    const closed = await createTestApp({ target: databaseTargets()[0]! });
    const open = await createTestApp({ target: databaseTargets()[0]!, env: { METRICS_PUBLIC: '1' } });
    try {
      const hidden = await closed.app.inject('/metrics');
      assert.equal(hidden.statusCode, 404);
      assert.equal(hidden.json().error.code, 'not_found');
      const shown = await open.app.inject('/metrics');
      assert.equal(shown.statusCode, 200);
      assert.match(shown.body, /domain_intel_http_requests_total/);
    } finally {
      await closed.close();
      await open.close();
    }
  });
});
