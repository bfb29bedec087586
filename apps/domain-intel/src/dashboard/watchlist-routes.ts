import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSessions } from './session-store.ts';
import { type DashboardViewer, findViewer, noStore, requireViewer } from './viewer.ts';

const PAGE = 100;
const RECENT_MOVES = 20;

const NOTICES: Record<string, string> = {
  watching: 'Watching it now: every move is listed below and sent to your webhooks.',
  removed: 'No longer watching it.',
};

/** The watchlist in the dashboard: the names, their status and expected drop, recent moves, add and remove. */
export function watchlistRoutes(app: FastifyInstance, sessions: DashboardSessions): void {
  const { accounts, watchlist, outbox } = app.ctx;
  const csrf = { preHandler: app.csrfProtection };

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    viewer: DashboardViewer,
    extra: { error?: string; domain?: string } = {},
  ) {
    const query = request.query as { offset?: string; done?: string };
    const offset = Math.max(0, Math.min(100_000, Number.parseInt(query.offset ?? '0', 10) || 0));
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

  app.get('/dashboard/watchlist', async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    return render(request, reply, viewer);
  });

  app.post('/dashboard/watchlist', csrf, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const domain = String((request.body as { domain?: unknown } | undefined)?.domain ?? '');
    try {
      await watchlist.add(viewer.caller, domain);
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const { status, message } = toPublicError(error);
      return render(request, reply.status(status), viewer, { error: message, domain });
    }
    return reply.redirect('/dashboard/watchlist?done=watching', 303);
  });

  app.post('/dashboard/watchlist/:domain/delete', csrf, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    await watchlist.remove(viewer.account.account_id, (request.params as { domain: string }).domain);
    return reply.redirect('/dashboard/watchlist?done=removed', 303);
  });
}
