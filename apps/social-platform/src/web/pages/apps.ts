import type { FastifyInstance } from 'fastify';
import { canvasFrameUrl, canvasOriginProblem } from '../canvas-url.ts';
import { renderPage } from '../render.ts';
import { pageQuery } from '../route-schemas.ts';
import { applyPageSecurityHeaders } from '../security-headers.ts';
import { requireViewer } from '../viewer.ts';

const PER_PAGE = 20;

const appParams = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/**
 * The iframe's sandbox: scripts and forms for the app, its own origin (so its cookies and
 * requests to its server work), popups for links it opens in a new tab. No top navigation,
 * no downloads, no modals, no pointer lock: the app stays inside its frame.
 */
export const CANVAS_SANDBOX = 'allow-scripts allow-forms allow-same-origin allow-popups';

/** The apps directory and the canvas page that shows one app with a fresh one-time key. */
export async function appPages(app: FastifyInstance): Promise<void> {
  const { platform: ctx, web } = app;

  app.get<{ Querystring: { page: number } }>(
    '/apps',
    { schema: { querystring: pageQuery } },
    async (request, reply) => {
      requireViewer(request);
      const { page } = request.query;
      const apps = await ctx.apps.list({ page, perPage: PER_PAGE });
      return renderPage(request, reply, 'apps.eta', {
        title: 'Apps',
        apps: apps.items.map((item) => ({ id: item.id, name: item.name, host: new URL(item.canvas_url).host })),
        total: apps.total,
        page,
        pages: Math.max(1, Math.ceil(apps.total / PER_PAGE)),
        hrefFor: (target: number) => `/apps?page=${target}`,
      });
    },
  );

  app.get<{ Params: { appId: number } }>('/apps/:appId', { schema: { params: appParams } }, async (request, reply) => {
    const viewer = requireViewer(request);
    const application = await ctx.apps.getById(request.params.appId);
    const problem = canvasOriginProblem(application.canvas_url, platformOrigins(request));
    if (problem) {
      return renderPage(
        request,
        reply,
        'error.eta',
        {
          title: 'This app cannot be opened',
          message: `Its canvas URL is not allowed. ${problem}`,
        },
        409,
      );
    }
    // A new key at every opening: the previous one, used or not, is worth nothing to anyone who sees this one.
    const key = await ctx.appAuth.issueAppKey(application.id, viewer.user.id);
    const frameUrl = canvasFrameUrl(application.canvas_url, key, application.id);
    applyPageSecurityHeaders(reply, { publicOrigin: web.publicOrigin, frameOrigin: frameUrl.origin });
    return renderPage(request, reply, 'canvas.eta', {
      title: application.name,
      bodyClass: 'canvas-page',
      application: { id: application.id, name: application.name },
      frameUrl: frameUrl.toString(),
      sandbox: CANVAS_SANDBOX,
    });
  });

  /** The origins the platform answers on: PUBLIC_URL's and the one this request came in on. */
  function platformOrigins(request: { protocol: string; host: string }): string[] {
    return [web.publicOrigin, `${request.protocol}://${request.host}`];
  }
}
