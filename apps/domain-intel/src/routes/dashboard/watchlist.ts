import { Type } from '@fastify/type-provider-typebox';
import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply } from 'fastify';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { type DashboardViewer, findViewer, noStore, requireViewer } from '../../dashboard/viewer.ts';
import { type DashboardApp, OffsetQuery, offsetOf } from './forms.ts';

const PAGE = 100;
const RECENT_MOVES = 20;

const NOTICES: Record<string, string> = {
  watching: 'Watching it now: every move is listed below and sent to your webhooks.',
  removed: 'No longer watching it.',
};

/** The name as typed; the watchlist service says what is wrong with it (invalid_domain, …). */
const WatchForm = Type.Object({ domain: Type.Optional(Type.String()) });
const WatchParams = Type.Object({ domain: Type.String() });

/** The watchlist in the dashboard: the names, their status and expected drop, recent moves, add and remove. */
export function watchlistRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, watchlist, outbox } = app.ctx;
  const csrf = { preValidation: app.csrfProtection };

  async function render(
    reply: FastifyReply,
    viewer: DashboardViewer,
    query: { offset?: string | undefined; done?: string | undefined },
    extra: { error?: string; domain?: string } = {},
  ) {
    const offset = offsetOf(query.offset, 100_000);
    const [{ watches, total }, moves] = await Promise.all([
      watchlist.list(viewer.caller, { limit: PAGE, offset }),
      outbox.recentEvents(viewer.account.account_id, 'watch.transition', RECENT_MOVES),
    ]);
    return noStore(reply).view('dashboard/watchlist', {
      viewer,
      watches,
      total,
      limit: viewer.plan.maxWatchedDomains,
      moves: moves.map((move) => move.data),
      previous: offset > 0 ? `/dashboard/watchlist?offset=${Math.max(0, offset - PAGE)}` : null,
      next: offset + PAGE < total ? `/dashboard/watchlist?offset=${offset + PAGE}` : null,
      offset,
      notice: NOTICES[query.done ?? ''],
      csrfToken: reply.generateCsrf(),
      ...extra,
    });
  }

  app.get('/dashboard/watchlist', { schema: { querystring: OffsetQuery } }, async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    return render(reply, viewer, request.query);
  });

  app.post(
    '/dashboard/watchlist',
    { ...csrf, schema: { querystring: OffsetQuery, body: WatchForm } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      const domain = request.body.domain ?? '';
      try {
        await watchlist.add(viewer.caller, domain);
      } catch (error) {
        if (!isAppError(error) || error.status >= 500) throw error;
        const { status, message } = toPublicError(error);
        return render(reply.status(status), viewer, request.query, { error: message, domain });
      }
      return reply.redirect('/dashboard/watchlist?done=watching', 303);
    },
  );

  app.post(
    '/dashboard/watchlist/:domain/delete',
    { ...csrf, schema: { params: WatchParams } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      await watchlist.remove(viewer.account.account_id, request.params.domain);
      return reply.redirect('/dashboard/watchlist?done=removed', 303);
    },
  );
}
