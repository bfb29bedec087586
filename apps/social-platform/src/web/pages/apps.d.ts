import type { FastifyInstance } from 'fastify';
/**
 * The iframe's sandbox: scripts and forms for the app, its own origin (so its cookies and
 * requests to its server work), popups for links it opens in a new tab. No top navigation,
 * no downloads, no modals, no pointer lock: the app stays inside its frame.
 */
export declare const CANVAS_SANDBOX = 'allow-scripts allow-forms allow-same-origin allow-popups';
/** The apps directory and the canvas page that shows one app with a fresh one-time key. */
export declare function appPages(app: FastifyInstance): Promise<void>;
