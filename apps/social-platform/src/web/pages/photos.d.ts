import type { FastifyInstance } from 'fastify';
/** Galleries (one's own with the upload form, and other people's as far as they may be seen). */
export declare function photoPages(app: FastifyInstance): Promise<void>;
