import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  databaseTargets,
  expectedErrorStatuses,
  type OpenApiDocument,
  operationsOf,
  undocumentedErrors,
} from '@repo/server-kit/testing';
import type { InjectOptions } from 'fastify';
import { errorCatalogue } from '../src/error-catalogue.ts';
import { API_REFERENCE_TITLE } from '../src/http/api-reference.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';

/** A value for a path parameter that no route accepts as a real thing. */
const BAD_PATH_VALUE = 'no%20such';

describe('the OpenAPI document lists every answer of every route', () => {
  let t: TestApp;
  let document: OpenApiDocument;
  let key: string;
  before(async () => {
    // Limits of 2 so that the per-address limits answer 429 on the third call.
    t = await createTestApp({
      target: databaseTargets()[0]!,
      env: { SAMPLE_RATE_PER_DAY: '2', SIGNUP_RATE_PER_HOUR: '2' },
    });
    document = (await t.app.inject('/openapi.json')).json();
    key = await t.keyFor('enterprise');
  });
  after(async () => t?.close());

  it('lists, for every operation, the client errors its parameters, body and key make possible', () => {
    assert.ok(operationsOf(document).length >= 15);
    assert.deepEqual(undocumentedErrors(document), []);
    const signup = document.paths['/signup']?.post;
    assert.ok(signup);
    // Sign-up's own refusals besides those of its shape: the address taken, too many sign-ups.
    for (const status of ['201', '400', '409', '413', '415', '429']) assert.ok(status in signup.responses!, status);
    assert.ok('429' in document.paths['/v1/sample']!.get!.responses!);
  });

  it('lists every status the routes answer to bad requests (checked by sending them)', async () => {
    let probes = 0;
    for (const { method, path, operation } of operationsOf(document)) {
      const documented = new Set(Object.keys(operation.responses ?? {}).map(Number));
      const url = path.replace(/\{[^}]+\}/g, BAD_PATH_VALUE);
      const keyed = expectedErrorStatuses(document, operation).includes(401);
      const requests: InjectOptions[] = [
        // No key at all (keyed routes) or nothing in the request (the others).
        { method: method as InjectOptions['method'], url },
        ...(operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({
            method: method as InjectOptions['method'],
            url: `${url}?${parameter.name}=a&${parameter.name}=b`,
            headers: bearer(key),
          })),
        ...(operation.requestBody
          ? [
              { method, url, headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'email' },
              { method, url, headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"email":' },
              {
                method,
                url,
                headers: { ...bearer(key), 'content-type': 'application/json' },
                payload: JSON.stringify({ email: 'x'.repeat(2_000_000) }),
              },
            ]
          : []),
        // Over a per-address limit: the keyless routes are limited per client address.
        ...(keyed
          ? []
          : [
              { method, url },
              { method, url },
            ]),
      ] as InjectOptions[];
      for (const request of requests) {
        const response = await t.app.inject({ remoteAddress: '192.0.2.77', ...request });
        probes++;
        if (response.statusCode < 400) continue;
        // Every refusal is the envelope with a catalogue code and the request id, as a header too.
        assert.ok(response.headers['x-request-id'], `${method} ${request.url}: X-Request-Id`);
        if (String(response.headers['content-type']).startsWith('application/json')) {
          const { error } = response.json();
          assert.ok(errorCatalogue.has(error?.code), `${method} ${request.url}: ${response.body.slice(0, 120)}`);
          assert.equal(error.request_id, response.headers['x-request-id']);
        }
        assert.ok(
          documented.has(response.statusCode),
          `${method} ${path} answered ${response.statusCode} (${response.body.slice(0, 120)}) to ${request.url}; documented: ${[...documented]}`,
        );
      }
    }
    assert.ok(probes > 50, `${probes} requests`);
  });
});

describe('the API reference page at /docs', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
  });
  after(async () => t?.close());

  it('carries the product’s name, colours, logo and links instead of the stock swagger-ui look', async () => {
    const page = await t.app.inject('/docs');
    const html = page.statusCode === 200 ? page.body : (await t.app.inject(String(page.headers.location))).body;
    assert.match(html, new RegExp(`<title>${API_REFERENCE_TITLE}</title>`));
    assert.doesNotMatch(html, /<title>Swagger UI<\/title>/);
    assert.match(html, /theme\/theme\.css/);
    assert.match(html, /theme\/favicon\.svg/);
    assert.match(html, /theme\/product-nav\.js/);

    const css = await t.app.inject('/docs/static/theme/theme.css');
    assert.equal(css.statusCode, 200);
    assert.match(css.body, /--accent: #2458d6/, 'the accent colour of the site');
    const nav = await t.app.inject('/docs/static/theme/product-nav.js');
    assert.match(nav.body, /\/docs\/errors/);
    const initializer = await t.app.inject('/docs/static/swagger-initializer.js');
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer.body)?.[1];
    assert.ok(logo, 'the logo replaces swagger-ui’s');
    assert.match(Buffer.from(logo, 'base64').toString('utf8'), /Domain Intelligence API/);
  });
});
