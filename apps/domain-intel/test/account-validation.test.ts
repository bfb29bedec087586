import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

/** Ajv's own wording and the framework's "Invalid body: …" prefix: what a caller must never read. */
const RAW_SCHEMA_MESSAGE =
  /^Invalid (body|params|query parameter)|must (be equal to|match a schema|NOT have|have required)/;

const LONG_ID = 'x'.repeat(65);

/** One bad request per validated field of every /account route, and the code the catalogue documents for it. */
const CASES: Array<{
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: unknown;
  code: string;
  names?: string;
}> = [
  {
    method: 'POST',
    url: '/account/targets',
    payload: { kind: 'pigeon', address: 'a@example.com' },
    code: 'invalid_target_kind',
    names: 'webhook, email, sftp',
  },
  {
    method: 'POST',
    url: '/account/targets',
    payload: { address: 'a@example.com' },
    code: 'invalid_target_kind',
    names: 'kind',
  },
  {
    method: 'POST',
    url: '/account/targets',
    payload: { kind: 'email', address: { url: 'x' } },
    code: 'invalid_target',
    names: 'address',
  },
  { method: 'POST', url: '/account/targets', payload: { kind: 'email' }, code: 'invalid_target', names: 'address' },
  { method: 'POST', url: '/account/targets', payload: ['email'], code: 'invalid_request', names: 'kind and address' },
  { method: 'DELETE', url: `/account/targets/${LONG_ID}`, code: 'target_not_found' },
  {
    method: 'POST',
    url: '/account/filters',
    payload: { name: { text: 'x' }, filter: 'tld=com' },
    code: 'invalid_name',
    names: 'name',
  },
  { method: 'POST', url: '/account/filters', payload: { filter: 'tld=com' }, code: 'invalid_name', names: 'name' },
  {
    method: 'POST',
    url: '/account/filters',
    payload: { name: 'x', filter: ['tld=com', 'min_da=5'] },
    code: 'invalid_request',
    names: 'filter',
  },
  { method: 'POST', url: '/account/filters', payload: { name: 'x' }, code: 'invalid_request', names: 'filter' },
  {
    method: 'POST',
    url: '/account/filters',
    payload: { name: 'x', filter: 'tld=com', target_ids: [{ id: 'tgt_1' }] },
    code: 'invalid_request',
    names: 'target_ids',
  },
  {
    method: 'POST',
    url: '/account/filters',
    payload: { name: 'x', filter: 'tld=com', target_ids: [LONG_ID] },
    code: 'invalid_request',
    names: 'target_ids',
  },
  { method: 'DELETE', url: `/account/filters/${LONG_ID}`, code: 'filter_not_found' },
  { method: 'POST', url: `/account/deliveries/${LONG_ID}/redeliver`, code: 'delivery_not_found' },
  { method: 'POST', url: '/account/watchlist', payload: {}, code: 'missing_domain', names: 'domain' },
  {
    method: 'POST',
    url: '/account/watchlist',
    payload: { domain: { name: 'a.com' } },
    code: 'invalid_domain',
    names: 'domain',
  },
  {
    method: 'POST',
    url: '/account/watchlist',
    payload: { domain: `${'a'.repeat(300)}.com` },
    code: 'domain_too_long',
    names: 'domain',
  },
  { method: 'DELETE', url: `/account/watchlist/${'a'.repeat(300)}.com`, code: 'domain_too_long', names: 'domain' },
  { method: 'GET', url: '/account/watchlist?limit=abc', code: 'invalid_limit', names: 'limit' },
];

for (const target of databaseTargets()) {
  describe(`/account validation errors use the catalogue's codes (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await createTestApp({ target });
      key = await t.keyFor('enterprise');
    });
    after(async () => t?.close());

    it('POST /account/targets with an unknown kind answers invalid_target_kind naming the kinds', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/account/targets',
        headers: bearer(key),
        payload: { kind: 'pigeon', address: 'me@example.com' },
      });
      assert.equal(response.statusCode, 400);
      const { error } = response.json();
      assert.equal(error.code, 'invalid_target_kind');
      assert.equal(error.message, 'kind must be one of webhook, email, sftp.');
      assert.deepEqual(error.details, { field: 'kind', accepted: ['webhook', 'email', 'sftp'] });
    });

    for (const { method, url, payload, code, names } of CASES) {
      it(`${method} ${url.slice(0, 40)} ${JSON.stringify(payload ?? null).slice(0, 50)} answers ${code}`, async () => {
        const response = await t.app.inject({
          method,
          url,
          headers: bearer(key),
          ...(payload !== undefined
            ? { payload: JSON.stringify(payload), headers: { ...bearer(key), 'content-type': 'application/json' } }
            : {}),
        });
        const { error } = response.json();
        assert.equal(error.code, code, response.body);
        assert.ok(response.statusCode === 400 || response.statusCode === 404, response.body);
        assert.doesNotMatch(error.message, RAW_SCHEMA_MESSAGE);
        if (names) assert.ok(error.message.includes(names), `"${error.message}" names ${names}`);
      });
    }

    it('a valid request still passes (the rules only rename errors)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/account/targets',
        headers: bearer(key),
        payload: { kind: 'email', address: 'owner@example.com' },
      });
      assert.equal(response.statusCode, 201, response.body);
    });
  });
}
