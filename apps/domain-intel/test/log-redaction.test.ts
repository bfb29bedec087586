import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, capturedLog, createTestApp, type TestApp } from './helpers.ts';

/** Secret query parameters as callers send them by mistake: every common name, any case, `name[]` forms. */
const SECRET_PARAMETERS = [
  'access_token',
  'Access_Token',
  'apikey',
  'APIKEY',
  'api-key',
  'Api-Key',
  'api_key',
  'key',
  'KEY',
  'token',
  'secret',
  'Secret',
  'signature',
  'SIGNATURE',
  'code',
  'password',
  'token[]',
  'api_key[]',
  'Access_Token[0]',
  'signature%5B%5D',
];

describe('secret query parameters never reach the log', () => {
  let t: TestApp;
  let key: string;
  const { logStream, logLines } = capturedLog();
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]!, logStream });
    key = await t.keyFor('starter');
  });
  after(async () => t?.close());

  it('redacts each of them on answered, refused and unknown routes, and keeps the other parameters', async () => {
    const secrets: string[] = [];
    for (const [index, name] of SECRET_PARAMETERS.entries()) {
      const secret = `S3CRET${index}x${key.slice(8, 20)}`;
      secrets.push(secret);
      const query = `domain=kept${index}.com&${name}=${secret}`;
      await t.app.inject({ url: `/v1/quota?${query}`, headers: bearer(key) });
      await t.app.inject({ url: `/v1/quota?${query}` });
      await t.app.inject({ url: `/no-such-route?${query}` });
      await t.app.inject({ url: `/dashboard/sign-in-link?${query}` });
    }
    const joined = logLines.join('\n');
    assert.ok(logLines.length >= SECRET_PARAMETERS.length * 4, 'the requests were logged');
    for (const secret of secrets) assert.ok(!joined.includes(secret), `${secret} is not in the log`);
    assert.ok(!joined.includes(key.slice(8)), 'no part of the key past its prefix is logged');
    for (const [index, name] of SECRET_PARAMETERS.entries()) {
      assert.ok(joined.includes(`domain=kept${index}.com&${name}=[REDACTED]`), `${name} shows as redacted`);
    }
  });
});
