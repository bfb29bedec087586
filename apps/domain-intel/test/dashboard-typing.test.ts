import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@fastify/type-provider-typebox';
import type { DashboardApp } from '../src/routes/dashboard/forms.ts';

/**
 * Checked by `npm run typecheck`, never run: a dashboard route reads its body, query and params
 * only as its TypeBox schemas type them. If a route without a schema could read fields (the body
 * typed `any`), the @ts-expect-error lines below would stop being errors and fail the typecheck.
 */
export function dashboardRoutesAreTypedBySchemas(app: DashboardApp): void {
  app.post('/dashboard/untyped', async (request) => {
    // @ts-expect-error: no body schema, so the body is unknown
    return request.body.name;
  });
  app.get('/dashboard/untyped', async (request) => {
    // @ts-expect-error: no querystring schema, so the query is unknown
    return request.query.offset;
  });
  app.post(
    '/dashboard/typed/:id',
    {
      schema: {
        body: Type.Object({ name: Type.Optional(Type.String()) }),
        params: Type.Object({ id: Type.String() }),
      },
    },
    async (request) => {
      const name: string | undefined = request.body.name;
      const id: string = request.params.id;
      // @ts-expect-error: a field the schema does not declare
      return [name, id, request.body.other];
    },
  );
}

test('the dashboard typing checks above are compiled by the typecheck', () => {
  assert.equal(typeof dashboardRoutesAreTypedBySchemas, 'function');
});
