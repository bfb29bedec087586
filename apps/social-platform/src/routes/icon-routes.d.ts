import type { FastifyInstance } from 'fastify';
/** The icon a notification shows when whoever added it gave none. */
export declare const DEFAULT_NOTIFICATION_ICON_PATH = '/icons/notification.png';
/** Platform icons, rendered once from SVG at start-up and cached by browsers for a day. */
export declare function iconRoutes(app: FastifyInstance): Promise<void>;
