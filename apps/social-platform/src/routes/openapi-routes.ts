import type { FastifyInstance } from 'fastify';

/** GET /openapi.json: the document @fastify/swagger builds from every route's schema. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
