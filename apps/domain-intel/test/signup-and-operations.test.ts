import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

const form = (email: string, ip = '203.0.113.7') => ({
  method: 'POST' as const,
  url: '/signup',
  payload: `email=${encodeURIComponent(email)}`,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  remoteAddress: ip,
});

const json = (payload: object | string, ip: string) => ({
  method: 'POST' as const,
  url: '/signup',
  payload,
  headers: { 'content-type': 'application/json' },
  remoteAddress: ip,
});

describe('sign-up', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, env: { SIGNUP_RATE_PER_HOUR: '3' } });
  });
  after(async () => t?.close());

  it('shows a form with a labelled e-mail field', async () => {
    const page = await t.app.inject('/signup');
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.body, /<label for="email">/);
    assert.match(page.body, /<form method="post" action="\/signup"/);
  });

  it('creates a Free account from the form and shows the working key once', async () => {
    const page = await t.app.inject(form('Newcomer@Example.com', '198.51.100.1'));
    assert.equal(page.statusCode, 201);
    const key = /di_live_[1-9A-HJ-NP-Za-km-z]+/.exec(page.body)?.[0];
    assert.ok(key, 'the key is on the page');
    assert.equal(page.headers['cache-control'], 'no-store');
    const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
    assert.equal(quota.json().data.plan, 'free');
  });

  it('answers JSON to JSON clients, with clear errors', async () => {
    const created = await t.app.inject(json({ email: 'json@example.com' }, '198.51.100.2'));
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().data.plan, 'free');
    assert.match(created.json().data.key, /^di_live_/);

    const again = await t.app.inject(json({ email: 'JSON@example.com' }, '198.51.100.2'));
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.code, 'email_taken');

    const invalid = await t.app.inject(json({ email: 'not an address' }, '198.51.100.3'));
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.json().error.code, 'invalid_email');

    const missing = await t.app.inject(json({}, '198.51.100.3'));
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.code, 'invalid_email');
    assert.match(missing.json().error.message, /required/);

    const broken = await t.app.inject(json('{"email":', '198.51.100.3'));
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().error.code, 'invalid_body');
  });

  it('shows form errors on the form, keeping what was typed', async () => {
    const page = await t.app.inject(form('oops@', '198.51.100.4'));
    assert.equal(page.statusCode, 400);
    assert.match(page.body, /role="alert"/);
    assert.match(page.body, /value="oops@"/);
  });

  it('escapes what it echoes', async () => {
    const page = await t.app.inject(form('<script>alert(1)</script>', '198.51.100.5'));
    assert.equal(page.statusCode, 400);
    assert.ok(!page.body.includes('<script>alert(1)</script>'));
  });

  it('limits sign-ups per client address with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await t.app.inject(form(`burst${i}@example.com`, '192.0.2.9'))).statusCode);
    assert.deepEqual(statuses, [201, 201, 201, 429]);
    const refused = await t.app.inject({
      ...form('burst9@example.com', '192.0.2.9'),
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await t.app.inject(form('elsewhere@example.com', '192.0.2.10'))).statusCode, 201);
  });
});

describe('operations endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
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
    const metrics = await t.app.inject('/metrics');
    assert.match(metrics.body, /domain_intel_http_requests_total\{method="GET",route="\/v1\/quota",status="200"\} 1/);
    assert.match(metrics.body, /domain_intel_http_requests_total\{method="GET",route="\/v1\/quota",status="401"\} 1/);
    assert.match(metrics.body, /domain_intel_http_request_duration_seconds_bucket/);
    assert.match(metrics.body, /domain_intel_quota_rejections_total/);
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
    assert.equal(call.json().data.used, 0, 'neither the preflight nor /v1/quota is counted');
    const page = await t.app.inject({ url: '/signup', headers: { origin } });
    assert.equal(page.headers['access-control-allow-origin'], undefined);
  });

  it('answers unknown routes and methods with the error envelope, never a 500', async () => {
    const unknown = await t.app.inject('/v1/does-not-exist');
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error.code, 'not_found');
    const post = await t.app.inject({ method: 'POST', url: '/v1/quota', payload: {} });
    assert.equal(post.statusCode, 404);
    const traversal = await t.app.inject('/v1/../../etc/passwd');
    assert.ok(traversal.statusCode < 500);
  });
});
