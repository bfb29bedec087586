import { Readable } from 'node:stream';
import { Type } from '@fastify/type-provider-typebox';
import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply } from 'fastify';
import { namesOfText } from '../../bulk/bulk-input.ts';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { type DashboardViewer, findViewer, noStore, requireViewer } from '../../dashboard/viewer.ts';
import { type DashboardApp, OffsetQuery, offsetOf } from './forms.ts';

const PAGE = 20;

const NOTICES: Record<string, string> = {
  started: 'The check started: its progress is below.',
  cancelled: 'The check was cancelled; the names decided before stay downloadable.',
};

/** The list as pasted: one name per line, or a CSV whose first column holds them. */
const BulkForm = Type.Object({ domains: Type.Optional(Type.String()) });
const JobParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ResultsQuery = Type.Object({ format: Type.Optional(Type.String()) });

/** Bulk availability jobs in the dashboard: start one from a pasted list, follow the progress, download, cancel. */
export function bulkCheckRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, bulkChecks } = app.ctx;
  const csrf = { preValidation: app.csrfProtection };

  async function render(
    reply: FastifyReply,
    viewer: DashboardViewer,
    query: { offset?: string | undefined; done?: string | undefined },
    extra: { error?: string; domains?: string } = {},
  ) {
    const offset = offsetOf(query.offset, 10_000);
    const { jobs, total } = await bulkChecks.list(viewer.account.account_id, PAGE, offset);
    return noStore(reply).view('dashboard/bulk-checks', {
      viewer,
      jobs,
      allowed: viewer.plan.features.bulkCheck,
      previous: offset > 0 ? `/dashboard/bulk-checks?offset=${Math.max(0, offset - PAGE)}` : null,
      next: offset + PAGE < total ? `/dashboard/bulk-checks?offset=${offset + PAGE}` : null,
      notice: NOTICES[query.done ?? ''],
      csrfToken: reply.generateCsrf(),
      ...extra,
    });
  }

  app.get('/dashboard/bulk-checks', { schema: { querystring: OffsetQuery } }, async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    return render(reply, viewer, request.query);
  });

  app.post(
    '/dashboard/bulk-checks',
    { ...csrf, bodyLimit: 4 * 1_048_576, schema: { querystring: OffsetQuery, body: BulkForm } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      const text = request.body.domains ?? '';
      try {
        if (!viewer.plan.features.bulkCheck) {
          return render(reply.status(403), viewer, request.query, {
            error: 'Bulk checks are part of the Starter and Enterprise plans.',
          });
        }
        const firstLine = text.trimStart().split('\n', 1)[0] ?? '';
        await bulkChecks.submit(viewer.caller, namesOfText(text, firstLine.includes(',')));
      } catch (error) {
        if (!isAppError(error) || error.status >= 500) throw error;
        const { status, message } = toPublicError(error);
        return render(reply.status(status), viewer, request.query, { error: message, domains: text });
      }
      return reply.redirect('/dashboard/bulk-checks?done=started', 303);
    },
  );

  app.get(
    '/dashboard/bulk-checks/:id/results',
    { schema: { params: JobParams, querystring: ResultsQuery } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      const format = request.query.format === 'ndjson' ? 'ndjson' : 'csv';
      const { id } = request.params;
      const lines = await bulkChecks.results(viewer.account.account_id, id, format);
      noStore(reply)
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${id}.${format}"`);
      return reply.send(Readable.from(lines));
    },
  );

  app.post('/dashboard/bulk-checks/:id/cancel', { ...csrf, schema: { params: JobParams } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    await bulkChecks.cancel(viewer.account.account_id, request.params.id);
    return reply.redirect('/dashboard/bulk-checks?done=cancelled', 303);
  });
}
