import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { capturedLog, createTestApp, type TestApp } from './helpers.ts';

describe('authentication of /v1 calls', () => {
  let t: TestApp;
  let key: string;
  const { logStream, logLines } = capturedLog();
  before(async () => {
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
    ['a 15 KB header', () => `Bearer di_live_${'a'.repeat(15 * 1024)}`, 'invalid_key'],
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

  it('refuses two Authorization headers (light-my-request joins them with a comma)', async () => {
    for (const headers of [
      [`Bearer ${key}`, 'Bearer junk'],
      ['Bearer nope', `Bearer ${key}`],
    ]) {
      const response = await call(headers);
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().error.code, 'invalid_key');
    }
  });

  describe('over a real socket', () => {
    let port: number;
    before(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });

    /** Sends header lines exactly as given (Node's client would merge or refuse some of them). */
    function rawRequest(headerLines: string[]): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString('latin1');
        });
        socket.on('error', reject);
        socket.on('end', () => {
          const [head = '', body = ''] = answer.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), body });
        });
        socket.end(
          `GET /v1/quota HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headerLines.join('\r\n')}\r\n\r\n`,
        );
      });
    }

    it('refuses a second Authorization header after a valid one (Node would drop it): 401 invalid_key', async () => {
      const valid = await rawRequest([`Authorization: Bearer ${key}`]);
      assert.equal(valid.status, 200);
      for (const lines of [
        [`Authorization: Bearer ${key}`, 'Authorization: Bearer junk'],
        ['Authorization: Bearer junk', `Authorization: Bearer ${key}`],
        [`Authorization: Bearer ${key}`, `authorization: Bearer ${key}`],
        [`Authorization: Bearer ${key}`, 'AUTHORIZATION: '],
      ]) {
        const refused = await rawRequest(lines);
        assert.equal(refused.status, 401, lines.join(' | '));
        assert.equal(JSON.parse(refused.body).error.code, 'invalid_key');
        assert.match(JSON.parse(refused.body).error.message, /one Authorization header/);
      }
    });

    it('answers a 15 KB header 401 invalid_key and a 16 KB one 431, before any route runs', async () => {
      const long = await rawRequest([`Authorization: Bearer di_live_${'a'.repeat(15 * 1024)}`]);
      assert.equal(long.status, 401);
      assert.equal(JSON.parse(long.body).error.code, 'invalid_key');
      // Node's limit is 16 KB for the request line and all headers together.
      const tooLong = await rawRequest([`Authorization: Bearer di_live_${'a'.repeat(16 * 1024)}`]);
      assert.equal(tooLong.status, 431);
    });
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
