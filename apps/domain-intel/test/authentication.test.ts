import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

describe('authentication of /v1 calls', () => {
  let t: TestApp;
  let key: string;
  const logLines: string[] = [];
  before(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
    t = await createTestApp({ target: databaseTargets()[0]!, logStream });
    key = await t.keyFor('starter');
  });
  after(async () => t?.close());

  const call = (authorization?: string | string[]) =>
    t.app.inject({
      url: '/v1/quota',
      headers: authorization === undefined ? {} : ({ authorization } as Record<string, string>),
    });

  it('accepts exactly "Bearer <key>"', async () => {
    const response = await call(`Bearer ${key}`);
    assert.equal(response.statusCode, 200);
  });

  /** Each header is built from the valid key, which exists only once `before` has run. */
  const hostile: Array<[string, (key: string) => string | undefined, string]> = [
    ['no header', () => undefined, 'missing_key'],
    ['an empty header', () => '', 'missing_key'],
    ['only spaces', () => '   ', 'missing_key'],
    ['a lowercase scheme', (k) => `bearer ${k}`, 'invalid_key'],
    ['another scheme', () => `Basic ${Buffer.from('user:pass').toString('base64')}`, 'invalid_key'],
    ['the scheme alone', () => 'Bearer', 'invalid_key'],
    ['two spaces', (k) => `Bearer  ${k}`, 'invalid_key'],
    ['two keys in one header', (k) => `Bearer ${k} Bearer ${k}`, 'invalid_key'],
    ['two keys comma-separated', (k) => `Bearer ${k}, Bearer ${k}`, 'invalid_key'],
    ['a 16 KB header', () => `Bearer di_live_${'a'.repeat(16 * 1024)}`, 'invalid_key'],
    ['non-ASCII', (k) => `Bearer di_live_ключ${k.slice(12)}`, 'invalid_key'],
    ['a key of another prefix', (k) => `Bearer sk_live_${k.slice(8)}`, 'invalid_key'],
    ['a well-formed unknown key', () => `Bearer di_live_${'2'.repeat(44)}`, 'invalid_key'],
    ['the key with a trailing character', (k) => `Bearer ${k}x`, 'invalid_key'],
    ['a quoted key', (k) => `Bearer "${k}"`, 'invalid_key'],
  ];
  for (const [label, header, code] of hostile) {
    it(`answers 401 ${code} to ${label}`, async () => {
      const response = await call(header(key));
      assert.equal(response.statusCode, 401);
      const body = response.json();
      assert.equal(body.error.code, code);
      assert.ok(body.error.message.length > 10);
      assert.equal(body.error.request_id, response.headers['x-request-id']);
      assert.match(String(response.headers['www-authenticate']), /^Bearer realm="domain-intel"/);
    });
  }

  it('takes the first of two Authorization headers, as Node does, and still checks it strictly', async () => {
    const response = await call(['Bearer nope', `Bearer ${key}`]);
    assert.equal(response.statusCode, 401);
  });

  it('never writes a key or the Authorization header into the logs', async () => {
    await call(`Bearer ${key}`);
    await call(`Bearer ${key}x`);
    await t.app.inject({
      url: `/v1/quota?key=${encodeURIComponent(key)}`,
      headers: { authorization: `Bearer ${key}` },
    });
    const joined = logLines.join('\n');
    assert.ok(logLines.length > 3, 'requests were logged');
    assert.ok(!joined.includes(key.slice(8)), 'no part of the key past its prefix is logged');
    assert.ok(joined.includes('[REDACTED]'));
  });

  it('keeps a request id given by the caller when it is safe, and replaces one that is not', async () => {
    const safe = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-0123456789' } });
    assert.equal(safe.headers['x-request-id'], 'trace-0123456789');
    const unsafe = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id <script>' } });
    assert.match(String(unsafe.headers['x-request-id']), /^req_[0-9a-f]{32}$/);
  });
});
