import type { FastifyInstance } from 'fastify';
/** The platform's web pages (registered by app.ts); everything lives in src/web/. */
export default function webRoutes(app: FastifyInstance): Promise<void>;
