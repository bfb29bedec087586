import type { FastifyInstance } from 'fastify';
/**
 * The canvas URL the platform frames: `/?key=ONE_TIME_KEY&app_id=APP_ID`. The key is traded
 * for a token right away (server to server), the token goes into a fresh session, and the
 * browser is redirected so the spent key leaves the address and the history.
 */
export declare function canvasRoutes(app: FastifyInstance): Promise<void>;
