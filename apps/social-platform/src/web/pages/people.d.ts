import type { FastifyInstance } from 'fastify';
/** People search, the friends list with waiting requests, and the friend buttons. */
export declare function peoplePages(app: FastifyInstance): Promise<void>;
