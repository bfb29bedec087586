import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render.ts';
import { pageQuery } from '../route-schemas.ts';
import { requireViewer } from '../viewer.ts';

const PER_PAGE = 20;

/** A link of a notification is followed only when it is a platform path or an http(s) URL. */
function safeLink(link: string): string | undefined {
  if (/^\/(?![/\\])/.test(link)) return link;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Notifications, newest first; viewing them marks them seen (the new ones stay highlighted this once). */
export async function notificationPages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;
  app.get<{ Querystring: { page: number } }>(
    '/notifications',
    { schema: { querystring: pageQuery } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const { page } = request.query;
      const notifications = await ctx.notifications.list(viewer.user.id, { page, perPage: PER_PAGE });
      await ctx.notifications.markAllSeen(viewer.user.id);
      return renderPage(request, reply, 'notifications.eta', {
        title: 'Notifications',
        notifications: notifications.items.map((item) => ({
          message: item.message,
          link: safeLink(item.link),
          icon: item.icon ? safeLink(item.icon) : undefined,
          isNew: item.seen === 0,
          createdAt: new Date(item.created_at).toISOString().slice(0, 16).replace('T', ' '),
        })),
        page,
        pages: Math.max(1, Math.ceil(notifications.total / PER_PAGE)),
        hrefFor: (target: number) => `/notifications?page=${target}`,
      });
    },
  );
}
