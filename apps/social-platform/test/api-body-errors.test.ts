import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, rawExchange } from '@repo/server-kit/testing';
import { APPLICATION_API_CODES, type ErrorCode, errorCatalogue } from '../src/error-catalogue.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
/** Over Fastify's 1 MiB body limit, and over the 64 KiB of api.php's form parser. */
const OVERSIZED_JSON = JSON.stringify({ key: 'k'.repeat(1_100_000) });
const OVERSIZED_FORM = `token=${'t'.repeat(70_000)}`;

interface BodyCase {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload: string;
  status: number;
  code: ErrorCode;
  what: string;
}

const TOKEN_CASES: BodyCase[] = [
  { what: 'malformed JSON', method: 'POST', url: '/token.php?key=x', headers: JSON_TYPE, payload: '{"key":' },
  { what: 'malformed JSON', method: 'PUT', url: '/token.php?key=x', headers: JSON_TYPE, payload: '{"key":' },
  { what: 'empty JSON', method: 'POST', url: '/token.php', headers: JSON_TYPE, payload: '' },
  { what: 'oversized JSON', method: 'POST', url: '/token.php', headers: JSON_TYPE, payload: OVERSIZED_JSON },
  { what: 'oversized JSON', method: 'PUT', url: '/token.php', headers: JSON_TYPE, payload: OVERSIZED_JSON },
  {
    what: 'unknown content type',
    method: 'POST',
    url: '/token.php',
    headers: { 'content-type': 'application/x-unknown' },
    payload: 'key=x',
  },
  {
    what: 'broken multipart',
    method: 'POST',
    url: '/token.php',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x\r\nbroken',
  },
  { what: 'form body', method: 'PATCH', url: '/token.php', headers: FORM_TYPE, payload: 'key=x' },
].map((c) => ({ ...c, status: 405, code: 'method_not_allowed' }) as BodyCase);

const API_CASES: BodyCase[] = [
  {
    what: 'malformed JSON',
    method: 'POST',
    url: '/api.php',
    headers: JSON_TYPE,
    payload: '{"token":',
    status: 400,
    code: 'invalid_body',
  },
  {
    what: 'empty JSON',
    method: 'POST',
    url: '/api.php',
    headers: JSON_TYPE,
    payload: '',
    status: 400,
    code: 'invalid_body',
  },
  {
    what: 'oversized JSON',
    method: 'POST',
    url: '/api.php',
    headers: JSON_TYPE,
    payload: OVERSIZED_JSON,
    status: 413,
    code: 'payload_too_large',
  },
  {
    what: 'oversized form',
    method: 'POST',
    url: '/api.php',
    headers: FORM_TYPE,
    payload: OVERSIZED_FORM,
    status: 413,
    code: 'payload_too_large',
  },
  {
    what: 'unknown content type',
    method: 'POST',
    url: '/api.php',
    headers: { 'content-type': 'application/x-unknown' },
    payload: 'token=x',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    what: 'malformed JSON',
    method: 'PUT',
    url: '/api.php',
    headers: JSON_TYPE,
    payload: '{',
    status: 405,
    code: 'method_not_allowed',
  },
  {
    what: 'oversized JSON',
    method: 'DELETE',
    url: '/api.php',
    headers: JSON_TYPE,
    payload: OVERSIZED_JSON,
    status: 405,
    code: 'method_not_allowed',
  },
  {
    what: 'malformed JSON',
    method: 'POST',
    url: '/api.php/extra',
    headers: JSON_TYPE,
    payload: '{',
    status: 404,
    code: 'not_found',
  },
];

function assertEnvelope(response: { statusCode: number; headers: Record<string, unknown>; body: string }, c: BodyCase) {
  const label = `${c.method} ${c.url} with ${c.what}`;
  assert.equal(response.statusCode, c.status, `${label}: ${response.body.slice(0, 200)}`);
  assert.match(String(response.headers['content-type']), /^application\/json/, label);
  const body = JSON.parse(response.body);
  assert.deepEqual(body.api, { total: 0, pages: 0, current_page: 0 }, label);
  assert.equal(body.output.error.code, c.code, label);
  assert.equal(typeof body.output.error.message, 'string', label);
  assert.equal(errorCatalogue.entry(c.code).status, c.status, `${label}: the catalogue's status`);
  assert.ok(APPLICATION_API_CODES.includes(c.code), `${label}: ${c.code} is in the Application API's reference`);
}

for (const target of databaseTargets()) {
  describe(`token.php and api.php answer every body in the envelope (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target });
    });
    after(() => t.close());

    it('answers a body sent to token.php with any method but GET as 405 with Allow, whatever the body', async () => {
      for (const c of TOKEN_CASES) {
        const response = await t.app.inject({ method: c.method, url: c.url, headers: c.headers, payload: c.payload });
        assertEnvelope(response, c);
        assert.equal(response.headers.allow, 'GET, HEAD');
      }
    });

    it("answers api.php's body errors with their status and catalogued code", async () => {
      for (const c of API_CASES) {
        const response = await t.app.inject({ method: c.method, url: c.url, headers: c.headers, payload: c.payload });
        assertEnvelope(response, c);
      }
    });

    it('sends the envelope on the wire too, with a request id', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const payload = '{"key":';
      const raw = await rawExchange(
        port,
        `POST /token.php HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n${payload}`,
      );
      assert.match(raw, /^HTTP\/1\.1 405 /);
      assert.match(raw, /\r\nX-Request-Id: req_[0-9a-f]{32}\r\n/i);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      assert.equal(body.output.error.code, 'method_not_allowed');
    });

    it('keeps an HTML page for a body sent to an unknown page', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/no/such/page', headers: JSON_TYPE, payload: '{' });
      assert.equal(response.statusCode, 404);
      assert.match(String(response.headers['content-type']), /^text\/html/);
    });
  });
}
