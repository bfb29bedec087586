import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, rawExchange } from '@repo/server-kit/testing';
import { featureName } from '../src/accounts/plan-required.ts';
import { PLANS } from '../src/accounts/plans.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { bearer, createTestApp, quotaStoreVariants, type TestApp } from './helpers.ts';

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
const headerOf = (answer: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(answer.slice(0, answer.indexOf('\r\n\r\n')))?.[1]?.trim();

/** The first thing a newcomer meets: every answer, even Node's and Fastify's own, is the envelope. */
describe('HTTP surface of the Domain Intelligence API', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
    key = await t.keyFor('enterprise');
  });
  after(async () => t?.close());

  it('answers an unencoded münchen.de on the request line with the envelope and a request id (raw socket)', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    for (const path of ['/v1/check?domain=münchen.de', '/v1/whois/münchen.de']) {
      // Node's HTTP parser refuses these bytes before Fastify sees a request (inject cannot send them).
      const answer = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\n${bearerLine(key)}\r\n`);
      assert.match(answer, /^HTTP\/1\.1 400 /);
      const body = envelopeOf(answer);
      assert.equal(body.error.code, 'invalid_url');
      assert.match(body.error.message, /m%C3%BCnchen\.de/);
      assert.equal(body.error.docs, '/docs/errors#invalid_url');
      assert.match(headerOf(answer, 'X-Request-Id') ?? '', /^req_[0-9a-f]{32}$/);
      assert.equal(body.error.request_id, headerOf(answer, 'X-Request-Id'));
    }
    // A header block over 16 KB, refused by Node too.
    const huge = await rawExchange(port, `GET /v1/quota HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431 /);
    assert.equal(envelopeOf(huge).error.code, 'request_too_large');
    assert.ok(headerOf(huge, 'X-Request-Id'));
  });

  it('answers a path with broken percent-encoding (Fastify’s own error) with the envelope and a request id', async () => {
    for (const url of ['/v1/%ZZ', '/v1/whois/caf%E9%', '/v1/check%?domain=a.com']) {
      const response = await t.app.inject({ url, headers: bearer(key) });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().error.code, 'invalid_url');
      assert.equal(response.json().error.request_id, response.headers['x-request-id']);
    }
    const longParameter = await t.app.inject({ url: `/v1/whois/${'a'.repeat(600)}.com`, headers: bearer(key) });
    assert.equal(longParameter.statusCode, 400);
    assert.equal(longParameter.json().error.code, 'invalid_url');
    assert.ok(longParameter.headers['x-request-id']);
  });

  it('answers a wrong method with 405, Allow and the envelope; an unknown path stays 404', async () => {
    for (const [method, url, allowed] of [
      ['POST', '/v1/check?domain=example.com', 'GET'],
      ['DELETE', '/v1/domains', 'GET'],
      ['PUT', '/v1/whois/example.com', 'GET'],
      ['POST', '/v1/quota', 'GET'],
      ['DELETE', '/signup', 'POST'],
      ['POST', '/dashboard/feed', 'GET'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: bearer(key) });
      assert.equal(response.statusCode, 405, `${method} ${url}`);
      const allow = String(response.headers.allow).split(', ');
      assert.ok(allow.includes(allowed), `${method} ${url}: Allow ${allow}`);
      assert.ok(!allow.includes(method));
      const { error } = response.json();
      assert.equal(error.code, 'method_not_allowed');
      assert.equal(error.request_id, response.headers['x-request-id']);
    }
    // A bare OPTIONS (no browser preflight headers) is answered too, never with a plain-text 400.
    const options = await t.app.inject({ method: 'OPTIONS', url: '/v1/check' });
    assert.equal(options.statusCode, 204);
    assert.match(String(options.headers['access-control-allow-methods']), /GET/);
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/nothing-here', headers: bearer(key) });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error.code, 'not_found');
    assert.equal(unknown.headers.allow, undefined);
  });

  it('answers a query parameter given twice with invalid_request "given more than once", on every /v1 route', async () => {
    const document = (await t.app.inject('/openapi.json')).json() as OpenApi;
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const operation of Object.values(operations)) {
        const url = path.replace(/\{[^}]+\}/g, (parameter) => (parameter === '{tld}' ? 'com' : 'example.com'));
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== 'query' || parameter.schema?.type === 'array') continue;
          const name = parameter.name;
          const response = await t.app.inject({ url: `${url}?${name}=1&${name}=2`, headers: bearer(key) });
          assert.equal(response.statusCode, 400, `${path} ${name}: ${response.body}`);
          const { error } = response.json();
          assert.equal(error.code, 'invalid_request', `${path} ${name}`);
          assert.match(error.message, new RegExp(`${name} is given more than once`));
          assert.equal(error.details.parameter, name);
          checked++;
        }
      }
    }
    assert.ok(checked >= 20, `${checked} parameters checked`);
    const feed = await t.app.inject({ url: '/v1/domains?min_da=10&min_da=20', headers: bearer(key) });
    assert.doesNotMatch(feed.json().error.message, /must be string/);
  });

  it('asks browsers to upgrade page resources to https only when the public address is https', async () => {
    const overHttp = await t.app.inject({ url: '/signup' });
    const policy = String(overHttp.headers['content-security-policy']);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /upgrade-insecure-requests/, 'a plain-http demo would lose its own scripts');
    const https = await createTestApp({
      target: databaseTargets()[0]!,
      env: { PUBLIC_URL: 'https://api.example.com' },
    });
    try {
      const overHttps = await https.app.inject({ url: '/signup' });
      assert.match(String(overHttps.headers['content-security-policy']), /upgrade-insecure-requests/);
    } finally {
      await https.close();
    }
  });

  it('names features in errors in snake_case, as every field of the API', async () => {
    const free = await t.keyFor('free');
    const bulk = await t.app.inject({ url: '/v1/check?domains=a.com,b.com', headers: bearer(free) });
    assert.equal(bulk.json().error.details.feature, 'bulk_check');
    const exported = await t.app.inject({ url: '/v1/domains/export', headers: bearer(free) });
    assert.equal(exported.json().error.details.feature, 'bulk_export');
    const snapshots = await t.app.inject({ url: '/v1/snapshots', headers: bearer(free) });
    assert.equal(snapshots.json().error.details.feature, 'snapshots');
    for (const feature of Object.keys(PLANS.free.features) as Array<keyof typeof PLANS.free.features>) {
      assert.match(featureName(feature), /^[a-z]+(_[a-z]+)*$/, feature);
    }
    assert.equal(featureName('deliveryTargets'), 'delivery_targets');
  });

  it('sends X-RateLimit-Reset as a Unix time in seconds everywhere: keyed calls, /v1/sample, /signup, dashboard sign-in', async () => {
    const keyed = await t.app.inject({ url: '/v1/domains?limit=1', headers: bearer(key) });
    // The keyed quota runs on the app's clock (2026-03-10T12:00Z in tests): its next midnight.
    assert.equal(keyed.headers['x-ratelimit-reset'], String(Date.parse('2026-03-11T00:00:00Z') / 1000));

    // The per-address limits run on the real clock: the end of their window from now.
    const nowSeconds = () => Math.floor(Date.now() / 1000);
    const before = nowSeconds();
    const sample = await t.app.inject({ url: '/v1/sample?domain=example.com', remoteAddress: '198.51.100.20' });
    assert.equal(sample.statusCode, 200);
    const sampleReset = Number(sample.headers['x-ratelimit-reset']);
    assert.ok(sampleReset >= before + 86_400 - 1 && sampleReset <= nowSeconds() + 86_400 + 1, String(sampleReset));

    const signup = await t.app.inject({
      method: 'POST',
      url: '/signup',
      headers: { accept: 'application/json' },
      payload: { email: `reset-${Date.now()}@example.com` },
      remoteAddress: '198.51.100.21',
    });
    assert.equal(signup.statusCode, 202, signup.body); // embedded mode: a confirmation mail went to the outbox
    const signupReset = Number(signup.headers['x-ratelimit-reset']);
    assert.ok(signupReset >= before + 3_600 - 1 && signupReset <= nowSeconds() + 3_600 + 1, String(signupReset));

    const browser = new DashboardBrowser(t.app, { 'x-forwarded-for': '198.51.100.22' });
    const signIn = await browser.signIn('nobody@example.com', 'di_live_wrong');
    const signInReset = Number(signIn.headers['x-ratelimit-reset']);
    assert.ok(signInReset >= before + 900 - 1 && signInReset <= nowSeconds() + 900 + 1, String(signInReset));
  });
});

for (const variant of quotaStoreVariants(databaseTargets())) {
  describe(`403 plan_required uses no quota (${variant.name})`, { skip: variant.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target: variant.target, redis: variant.redis });
    });
    after(async () => t?.close());

    it('gives the unit back to a Free key asking for a bulk check or the export', async () => {
      const free = await t.keyFor('free');
      const used = async () => (await t.app.inject({ url: '/v1/quota', headers: bearer(free) })).json().data.used;
      const counted = await t.app.inject({ url: '/v1/domains?limit=1', headers: bearer(free) });
      assert.equal(counted.statusCode, 200);
      assert.equal(counted.headers['x-ratelimit-remaining'], '99');
      assert.equal(await used(), 1);
      for (const url of ['/v1/check?domains=a.com,b.com', '/v1/domains/export', '/v1/snapshots?tld=com']) {
        const refused = await t.app.inject({ url, headers: bearer(free) });
        assert.equal(refused.statusCode, 403, url);
        assert.equal(refused.json().error.code, 'plan_required');
        assert.equal(refused.headers['x-ratelimit-remaining'], '99', `${url}: the headers say nothing was used`);
        assert.equal(await used(), 1, `${url}: /v1/quota says nothing was used`);
      }
    });
  });
}

const bearerLine = (key: string) => `Authorization: Bearer ${key}\r\n`;

interface OpenApi {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; in: string; schema?: { type?: string } }> }>
  >;
}
