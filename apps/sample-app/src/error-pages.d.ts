import type { FastifyInstance } from 'fastify';
/**
 * Every failure becomes an HTML page with the right status: what the platform said when it
 * refused a call, what was wrong with the request, or a generic 500 whose details go to the log.
 */
export declare function installErrorPages(app: FastifyInstance): void;
