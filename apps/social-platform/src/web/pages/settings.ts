import type { FastifyInstance } from 'fastify';
import { PERMISSIONS } from '../../applications/permissions.ts';
import { setFlash } from '../flash.ts';
import { renderPage } from '../render.ts';
import { requireViewer } from '../viewer.ts';

const appParams = {
  type: 'object',
  required: ['appId'],
  properties: { appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** The apps a person allowed, with what each may do, and removing one. */
export async function settingsPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  app.get('/settings/apps', async (request, reply) => {
    const viewer = requireViewer(request);
    const granted = await ctx.grants.listForUser(viewer.user.id);
    return renderPage(request, reply, 'settings-apps.eta', {
      title: 'Your apps',
      apps: granted.map((entry) => ({
        id: entry.appId,
        name: entry.name,
        iconUrl: entry.iconUrl,
        permissions: entry.permissions.map((name) => PERMISSIONS[name]),
        grantedOn: new Date(entry.grantedAt).toISOString().slice(0, 10),
      })),
    });
  });

  // Removing an app deletes the grant and revokes its tokens at once; opening it again asks again.
  app.post<{ Params: { appId: number } }>(
    '/settings/apps/:appId/remove',
    { schema: { params: appParams }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      await ctx.appAuth.removeAppForUser(request.params.appId, viewer.user.id);
      setFlash(reply, 'app_removed', app.web.cookies.secure);
      return reply.redirect('/settings/apps', 303);
    },
  );
}
