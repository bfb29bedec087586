import type { FastifyInstance } from 'fastify';
/**
 * The platform's web pages: sessions, form protection, templates, styles and every page.
 * Registered (encapsulated) by the platform's app; nothing here leaks into the API routes.
 */
export declare function webPlugin(app: FastifyInstance): Promise<void>;
