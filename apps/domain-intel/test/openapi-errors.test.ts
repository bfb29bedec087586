import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { errorCatalogue } from '../src/error-catalogue.ts';
import { createTestApp, type TestApp } from './helpers.ts';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components: { schemas: Record<string, { properties: { error: { properties: { code: unknown } } } }> };
}

/** The `code` values a component allows. */
function allowedCodes(code: unknown): string[] {
  return (code as { enum?: string[] } | undefined)?.enum ?? [];
}

describe('OpenAPI error responses come from the error catalogue', () => {
  let t: TestApp;
  let openapi: OpenApiDocument;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
    openapi = (await t.app.inject('/openapi.json')).json();
  });
  after(async () => t?.close());

  it('has one component per error status whose code enum is exactly that status’s catalogue codes', () => {
    const statuses = [...new Set(errorCatalogue.entries.map((entry) => entry.status))];
    for (const status of statuses) {
      const component = openapi.components.schemas[`Error${status}`];
      assert.ok(component, `component Error${status}`);
      const expected = errorCatalogue.entries.filter((entry) => entry.status === status).map((entry) => entry.code);
      assert.deepEqual(allowedCodes(component.properties.error.properties.code).sort(), expected.sort());
    }
    // A few by hand, so a change to the grouping itself cannot pass unnoticed.
    assert.ok(
      allowedCodes(openapi.components.schemas.Error401?.properties.error.properties.code).includes('key_revoked'),
    );
    assert.ok(
      allowedCodes(openapi.components.schemas.Error403?.properties.error.properties.code).includes('plan_required'),
    );
    assert.ok(
      !allowedCodes(openapi.components.schemas.Error400?.properties.error.properties.code).includes('plan_required'),
    );
  });

  it('points every error response of every route at the component of its own status', () => {
    let seen = 0;
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (Number(status) < 400) continue;
          const schema = JSON.stringify(response.content?.['application/json']?.schema ?? {});
          assert.match(schema, new RegExp(`Error${status}`), `${method.toUpperCase()} ${path} ${status}: ${schema}`);
          seen++;
        }
      }
    }
    assert.ok(seen > 20, `only ${seen} error responses in the document`);
  });
});
