import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

/** Where the app's half of the canvas protocol is served; apps load it from the platform. */
export const CANVAS_SCRIPT_PATH = '/js/canvas.js';
/** The canvas page's half, run by the platform's own canvas page. */
export const CANVAS_HOST_SCRIPT_PATH = '/js/canvas-host.js';

/**
 * The two canvas scripts (src/canvas/), read once at start-up. Apps on other origins load
 * canvas.js into their pages, so it may be fetched cross-origin; an hour of caching lets a
 * change reach every app the same day.
 */
export async function canvasScriptRoutes(app: FastifyInstance): Promise<void> {
  const serve = async (path: string, file: string) => {
    const source = await readFile(new URL(`../canvas/${file}`, import.meta.url));
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'public, max-age=3600')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('X-Content-Type-Options', 'nosniff')
        .send(source),
    );
  };
  await serve(CANVAS_SCRIPT_PATH, 'canvas.js');
  await serve(CANVAS_HOST_SCRIPT_PATH, 'canvas-host.js');
}
