import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, unknown>;
}

/** A value each path parameter of the /v1 routes accepts, so the call reaches the query check. */
const PATH_VALUES: Record<string, string> = { name: 'example.com', tld: 'com', date: '2026-03-10' };

for (const target of databaseTargets()) {
  describe(`every /v1 route refuses a query parameter it does not take (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let operations: Array<{ path: string; url: string; operation: Operation }>;
    before(async () => {
      t = await createTestApp({ target });
      key = await t.keyFor('enterprise');
      const openapi = (await t.app.inject('/openapi.json')).json() as {
        paths: Record<string, Record<string, Operation>>;
      };
      operations = Object.entries(openapi.paths)
        .filter(([path]) => path.startsWith('/v1/'))
        .flatMap(([path, methods]) =>
          Object.values(methods).map((operation) => ({
            path,
            url: path.replace(/\{(\w+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x'),
            operation,
          })),
        );
    });
    after(async () => t?.close());

    it('GET /v1/domains?min_age=5 answers 400 unknown_parameter naming min_age and the accepted parameters', async () => {
      const response = await t.app.inject({ url: '/v1/domains?min_age=5&tld=com', headers: bearer(key) });
      assert.equal(response.statusCode, 400);
      const { error } = response.json();
      assert.equal(error.code, 'unknown_parameter');
      assert.equal(error.details.parameter, 'min_age');
      assert.ok(error.details.accepted.includes('min_years'), error.details.accepted.join());
      assert.match(error.message, /"min_age"/);
      assert.match(error.message, /min_years/);
      assert.equal(error.docs, '/docs/errors#unknown_parameter');
    });

    it('every /v1 route names the unknown parameter and lists exactly the query parameters OpenAPI gives it', async () => {
      assert.ok(operations.length >= 10, `only ${operations.length} /v1 operations`);
      for (const { path, url, operation } of operations) {
        const response = await t.app.inject({ url: `${url}?not_a_parameter=1`, headers: bearer(key) });
        assert.equal(response.statusCode, 400, `${path}: ${response.body}`);
        const { error } = response.json();
        assert.equal(error.code, 'unknown_parameter', path);
        assert.equal(error.details.parameter, 'not_a_parameter', path);
        const documented = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        assert.deepEqual([...error.details.accepted].sort(), documented.sort(), path);
        assert.ok(operation.responses['400'], `${path} documents its 400`);
      }
    });

    it('leaves the parameters a route takes alone, and the export its own refusal of paging', async () => {
      assert.equal((await t.app.inject({ url: '/v1/domains?tld=com&limit=5', headers: bearer(key) })).statusCode, 200);
      assert.equal((await t.app.inject({ url: '/v1/quota', headers: bearer(key) })).statusCode, 200);
      const paging = await t.app.inject({ url: '/v1/domains/export?limit=10', headers: bearer(key) });
      assert.equal(paging.json().error.code, 'unsupported_parameter');
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/v1/domains?tld=com',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.statusCode, 204, 'a browser preflight carries the query and is still answered');
    });

    it('is checked after the key: a call without one is told about the key first', async () => {
      const response = await t.app.inject({ url: '/v1/domains?min_age=5' });
      assert.equal(response.statusCode, 401);
    });
  });
}
