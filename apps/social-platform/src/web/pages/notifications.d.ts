import type { FastifyInstance } from 'fastify';
/** Notifications, newest first; viewing them marks them seen (the new ones stay highlighted this once). */
export declare function notificationPages(app: FastifyInstance): Promise<void>;
