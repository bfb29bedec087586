import type { FastifyInstance } from 'fastify';
/** Uploaded images. Names are unguessable and never reused, so browsers may cache them for good. */
export declare function mediaRoutes(app: FastifyInstance): Promise<void>;
