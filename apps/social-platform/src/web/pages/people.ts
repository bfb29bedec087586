import type { FastifyInstance } from 'fastify';
import { appError } from '../../error-catalogue.ts';
import { type FlashKey, setFlash } from '../flash.ts';
import { textFields } from '../forms.ts';
import { localRedirectPath } from '../local-redirect.ts';
import { notify } from '../notify.ts';
import { peopleViews, relationshipOf } from '../people-view.ts';
import { renderPage } from '../render.ts';
import { pageProperty } from '../route-schemas.ts';
import { requireViewer } from '../viewer.ts';

const PER_PAGE = 10;
const MAX_QUERY_LENGTH = 100;

const pageQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: MAX_QUERY_LENGTH },
    page: pageProperty,
  },
} as const;

const friendAction = {
  type: 'object',
  required: ['userName', 'action'],
  properties: {
    userName: { type: 'string', maxLength: 64 },
    action: { type: 'string', enum: ['request', 'accept', 'decline', 'unfriend'] },
  },
} as const;

type FriendAction = 'request' | 'accept' | 'decline' | 'unfriend';

/** People search, the friends list with waiting requests, and the friend buttons. */
export async function peoplePages(app: FastifyInstance): Promise<void> {
  const ctx = app.platform;

  app.get<{ Querystring: { q?: string; page: number } }>(
    '/people',
    { schema: { querystring: pageQuery } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const query = (request.query.q ?? '').trim();
      const { page } = request.query;
      const found = query ? await ctx.users.search(query, { page, perPage: PER_PAGE }) : { items: [], total: 0 };
      const people = await peopleViews(ctx, found.items);
      const relationships = await Promise.all(people.map((person) => relationshipOf(ctx, viewer.user.id, person.id)));
      return renderPage(request, reply, 'people.eta', {
        title: query ? `People matching “${query}”` : 'Find people',
        query,
        results: people.map((person, index) => ({ person, relationship: relationships[index] })),
        total: found.total,
        page,
        pages: Math.max(1, Math.ceil(found.total / PER_PAGE)),
        hrefFor: (target: number) => `/people?q=${encodeURIComponent(query)}&page=${target}`,
        back: request.url,
      });
    },
  );

  app.get<{ Querystring: { page: number } }>(
    '/friends',
    { schema: { querystring: pageQuery } },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const { page } = request.query;
      const [incoming, friends] = await Promise.all([
        ctx.friends.incomingRequests(viewer.user.id),
        ctx.friends.list(viewer.user.id, { page, perPage: PER_PAGE }),
      ]);
      return renderPage(request, reply, 'friends.eta', {
        title: 'Friends',
        requests: await peopleViews(
          ctx,
          incoming.map((entry) => entry.user),
        ),
        friends: await peopleViews(ctx, friends.items),
        total: friends.total,
        page,
        pages: Math.max(1, Math.ceil(friends.total / PER_PAGE)),
        hrefFor: (target: number) => `/friends?page=${target}`,
        back: request.url,
      });
    },
  );

  app.post<{ Params: { userName: string; action: FriendAction } }>(
    '/friends/:userName/:action',
    { schema: { params: friendAction }, preHandler: app.csrfProtection },
    async (request, reply) => {
      const viewer = requireViewer(request);
      const other = await ctx.users.findByUserName(request.params.userName);
      if (!other) throw appError('user_not_found', `There is no user @${request.params.userName}.`);
      const flash = await applyFriendAction(request.params.action, viewer.user, other);
      setFlash(reply, flash, app.web.cookies.secure);
      const { back } = textFields(request.body, ['back']);
      return reply.redirect(localRedirectPath(back, app.web.publicOrigin), 303);
    },
  );

  async function applyFriendAction(
    action: FriendAction,
    viewer: Parameters<typeof notify.friendRequest>[1],
    other: Parameters<typeof notify.friendRequest>[1],
  ): Promise<FlashKey> {
    switch (action) {
      case 'request': {
        const outcome = await ctx.friends.request(viewer.id, other.id);
        if (outcome === 'requested') await notify.friendRequest(ctx, viewer, other.id);
        if (outcome === 'accepted') await notify.requestAccepted(ctx, viewer, other.id);
        return outcome === 'requested'
          ? 'friend_request_sent'
          : outcome === 'accepted'
            ? 'friend_request_accepted'
            : outcome;
      }
      case 'accept':
        await ctx.friends.accept(viewer.id, other.id);
        await notify.requestAccepted(ctx, viewer, other.id);
        return 'friend_request_accepted';
      case 'decline':
        await ctx.friends.decline(viewer.id, other.id);
        return 'friend_request_declined';
      case 'unfriend':
        await ctx.friends.unfriend(viewer.id, other.id);
        return 'unfriended';
    }
  }
}
