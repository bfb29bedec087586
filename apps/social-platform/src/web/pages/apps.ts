import type { FastifyInstance } from 'fastify';
import { appNotFound, permissionsOf } from '../../applications/applications-service.ts';
import { covers, PERMISSIONS } from '../../applications/permissions.ts';
import { appError } from '../../error-catalogue.ts';
import { CANVAS_HOST_SCRIPT_PATH } from '../../routes/canvas-script-routes.ts';
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

/** The apps directory, the consent page, and the canvas page that shows one app with a fresh one-time key. */
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

  /** The app, if the viewer may open it: a disabled one is refused, one in development mode is unknown to others. */
  const openableApp = async (appId: number, userId: number) => {
    const application = await ctx.apps.getById(appId);
    if (application.status !== 'active') {
      throw appError('app_disabled', `${application.name} has been disabled by its developer.`);
    }
    if (!(await ctx.apps.canOpen(application, userId))) throw appNotFound(appId);
    return application;
  };

  app.get<{ Params: { appId: number } }>('/apps/:appId', { schema: { params: appParams } }, async (request, reply) => {
    const viewer = requireViewer(request);
    const application = await openableApp(request.params.appId, viewer.user.id);
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
    const needed = permissionsOf(application);
    const granted = await ctx.grants.permissionsOf(application.id, viewer.user.id);
    if (!covers(granted, needed)) {
      // No key before consent: the first opening, and any opening after the app asked for more, asks first.
      const developer = await ctx.users.getById(application.owner_id);
      return renderPage(request, reply, 'consent.eta', {
        title: `Allow ${application.name}?`,
        application: {
          id: application.id,
          name: application.name,
          description: application.description,
          iconUrl: application.icon_url,
          inDevelopment: application.published !== 1,
        },
        developer: { name: developer.full_name, userName: developer.user_name },
        permissions: needed.map((name) => ({ name, text: PERMISSIONS[name], isNew: !granted.includes(name) })),
        asksMore: granted.length > 0,
      });
    }
    // A new key at every opening: the previous one, used or not, is worth nothing to anyone who sees this one.
    const key = await ctx.appAuth.issueAppKey(application.id, viewer.user.id);
    // The origin this page is shown on: the one the app's messages must be posted to.
    const pageOrigin = new URL(`${request.protocol}://${request.host}`).origin;
    const frameUrl = canvasFrameUrl({
      canvasUrl: application.canvas_url,
      key,
      appId: application.id,
      userId: viewer.user.id,
      platformOrigin: pageOrigin,
      secret: ctx.apps.secretOf(application),
      ts: Math.floor(ctx.clock.now() / 1000),
    });
    applyPageSecurityHeaders(reply, { publicOrigin: web.publicOrigin, frameOrigin: frameUrl.origin, scripts: true });
    return renderPage(request, reply, 'canvas.eta', {
      title: application.name,
      bodyClass: 'canvas-page',
      application: { id: application.id, name: application.name },
      frameUrl: frameUrl.toString(),
      frameOrigin: frameUrl.origin,
      sandbox: CANVAS_SANDBOX,
      hostScript: CANVAS_HOST_SCRIPT_PATH,
    });
  });

  app.post<{ Params: { appId: number } }>(
    '/apps/:appId/allow',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const application = await openableApp(request.params.appId, viewer.user.id);
      await ctx.consent.allow(application.id, viewer.user.id, permissionsOf(application));
      return reply.redirect(`/apps/${application.id}`, 303);
    },
  );

  /** The origins the platform answers on: PUBLIC_URL's and the one this request came in on. */
  function platformOrigins(request: { protocol: string; host: string }): string[] {
    return [web.publicOrigin, `${request.protocol}://${request.host}`];
  }
}
