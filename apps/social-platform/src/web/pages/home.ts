import type { FastifyInstance } from 'fastify';
import { peopleViews } from '../people-view.ts';
import { renderPage } from '../render.ts';

/** The start page: a welcome for visitors, an overview for people who are logged in. */
export async function homePage(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;
  app.get('/', async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return renderPage(request, reply, 'welcome.eta', { title: 'Welcome', bodyClass: 'welcome' });
    const [incoming, friends, apps] = await Promise.all([
      ctx.friends.incomingRequests(viewer.user.id),
      ctx.friends.list(viewer.user.id, { page: 1, perPage: 12 }),
      ctx.apps.list({ page: 1, perPage: 6 }),
    ]);
    return renderPage(request, reply, 'home.eta', {
      title: 'Home',
      requests: await peopleViews(
        ctx,
        incoming.map((request) => request.user),
      ),
      friends: await peopleViews(ctx, friends.items),
      friendsTotal: friends.total,
      apps: apps.items,
    });
  });
}
