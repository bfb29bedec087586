import type { FastifyInstance } from 'fastify';
/** Profiles: picture, facts, friend buttons, latest photos and friends; one's own adds the picture upload. */
export declare function profilePages(app: FastifyInstance): Promise<void>;
