import type { FastifyInstance } from 'fastify';
import { webPlugin } from '../../web/plugin.ts';

/** The platform's web pages (registered by app.ts); everything lives in src/web/. */
export default async function webRoutes(app: FastifyInstance): Promise<void> {
  await app.register(webPlugin);
}
