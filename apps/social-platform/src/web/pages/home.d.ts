import type { FastifyInstance } from 'fastify';
/** The start page: a welcome for visitors, an overview for people who are logged in. */
export declare function homePage(app: FastifyInstance): Promise<void>;
