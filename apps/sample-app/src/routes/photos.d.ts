import type { FastifyInstance } from 'fastify';
/**
 * The upload form posts the photo to the app itself; the app forwards it to the platform's
 * `photo.addPhoto` with the session's token and shows the seven sizes it answers with.
 */
export declare function photoRoutes(app: FastifyInstance): Promise<void>;
