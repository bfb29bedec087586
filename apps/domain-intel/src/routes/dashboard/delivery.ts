import { Type } from '@fastify/type-provider-typebox';
import type { CreatedDeliveryTarget, DeliveryTarget } from '@repo/contracts/domain-intel';
import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply } from 'fastify';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { type DashboardViewer, findViewer, noStore, requireViewer } from '../../dashboard/viewer.ts';
import { allOf, type DashboardApp, FormField, firstOf, NoticeQuery, offsetOf } from './forms.ts';

const LOG_PAGE = 50;

/** Messages after a redirect, chosen by a fixed word so a link cannot inject text. */
const NOTICES: Record<string, string> = {
  'filter-saved': 'Filter saved. Its new matches are batched after the next daily run or hourly round.',
  'filter-deleted': 'Filter deleted. Its delivery log stays.',
  'target-removed': 'Target removed. Filters that used it keep their other targets.',
  redelivered: 'Queued again: the same batch, with the same id, goes out within a minute.',
};

const FilterForm = Type.Object({ name: FormField, filter: FormField, brand: FormField, target_id: FormField });
const TargetForm = Type.Object({ kind: FormField, address: FormField });
const FilterParams = Type.Object({ filterId: Type.String() });
const TargetParams = Type.Object({ targetId: Type.String() });
const DeliveryParams = Type.Object({ deliveryId: Type.String() });
const DeliveriesQuery = Type.Object({
  filter_id: Type.Optional(Type.String()),
  offset: Type.Optional(Type.String()),
  done: Type.Optional(Type.String()),
});

/** A target as a short label for a table cell (the full address is in its title). */
export function targetLabel(target: DeliveryTarget | undefined, fallback: string): string {
  if (!target) return fallback;
  if (target.kind === 'email') return `e-mail ${target.address}`;
  try {
    const url = new URL(target.address);
    return `${target.kind} ${url.host}${target.kind === 'webhook' ? url.pathname : ''}`;
  } catch {
    return `${target.kind} ${target.address}`;
  }
}

/**
 * Saved filters, delivery targets and the delivery log in the dashboard: the same services as
 * the /account API, through forms with the dashboard's CSRF token. A refused form (bad filter,
 * plan limit, private target) shows the page again with the reason and the right status.
 */
export function deliveryRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, savedFilters, targets, outbox } = app.ctx;
  const csrf = { preValidation: app.csrfProtection };

  async function renderFilters(
    reply: FastifyReply,
    viewer: DashboardViewer,
    extra: { error?: string; created?: CreatedDeliveryTarget; form?: Record<string, string>; done?: string } = {},
  ) {
    const { done, ...shown } = extra;
    const accountId = viewer.account.account_id;
    const [filters, targetList] = await Promise.all([
      savedFilters.list(accountId, viewer.plan),
      targets.list(accountId),
    ]);
    return noStore(reply).view('dashboard/filters', {
      viewer,
      filters,
      targets: targetList,
      targetById: Object.fromEntries(targetList.map((target) => [target.target_id, target])),
      targetLabel,
      notice: NOTICES[done ?? ''],
      csrfToken: reply.generateCsrf(),
      features: viewer.plan.features,
      form: {},
      ...shown,
    });
  }

  /** Runs a form action; a refusal re-renders the filters page with its message and status. */
  async function attempt<T>(
    reply: FastifyReply,
    viewer: DashboardViewer,
    action: () => Promise<T>,
    form: Record<string, string>,
  ): Promise<{ done: T; page?: undefined } | { done?: undefined; page: FastifyReply }> {
    try {
      return { done: await action() };
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const { status, message } = toPublicError(error);
      return { page: await renderFilters(reply.status(status), viewer, { error: message, form }) };
    }
  }

  app.get('/dashboard/filters', { schema: { querystring: NoticeQuery } }, async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    return renderFilters(reply, viewer, { ...(request.query.done ? { done: request.query.done } : {}) });
  });

  app.post('/dashboard/filters', { ...csrf, schema: { body: FilterForm } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const form = request.body;
    const input = { name: firstOf(form.name), filter: firstOf(form.filter), brand: firstOf(form.brand) };
    const outcome = await attempt(
      reply,
      viewer,
      () =>
        savedFilters.create(viewer.caller, {
          ...input,
          brand: input.brand.trim() === '' ? null : input.brand,
          targetIds: allOf(form.target_id),
        }),
      input,
    );
    return outcome.page ?? reply.redirect('/dashboard/filters?done=filter-saved', 303);
  });

  app.post(
    '/dashboard/filters/:filterId/delete',
    { ...csrf, schema: { params: FilterParams } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      await savedFilters.remove(viewer.account.account_id, request.params.filterId);
      return reply.redirect('/dashboard/filters?done=filter-deleted', 303);
    },
  );

  app.post('/dashboard/targets', { ...csrf, schema: { body: TargetForm } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const input = { kind: firstOf(request.body.kind), address: firstOf(request.body.address) };
    const outcome = await attempt(reply, viewer, () => targets.create(viewer.caller, input), input);
    if (outcome.page) return outcome.page;
    // The webhook secret (or the SFTP public key) is shown on this answer only.
    return renderFilters(reply.status(201), viewer, { created: outcome.done });
  });

  app.post(
    '/dashboard/targets/:targetId/delete',
    { ...csrf, schema: { params: TargetParams } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      await targets.remove(viewer.account.account_id, request.params.targetId);
      return reply.redirect('/dashboard/filters?done=target-removed', 303);
    },
  );

  app.get('/dashboard/deliveries', { schema: { querystring: DeliveriesQuery } }, async (request, reply) => {
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) return reply.redirect('/dashboard', 303);
    const offset = offsetOf(request.query.offset, 10_000);
    const filterId = request.query.filter_id || undefined;
    const accountId = viewer.account.account_id;
    const [log, filters, targetList] = await Promise.all([
      outbox.log(accountId, { ...(filterId ? { filterId } : {}), limit: LOG_PAGE + 1, offset }),
      savedFilters.list(accountId, viewer.plan),
      targets.list(accountId),
    ]);
    const link = (at: number) =>
      `/dashboard/deliveries?${new URLSearchParams({ ...(filterId ? { filter_id: filterId } : {}), offset: String(at) })}`;
    return noStore(reply).view('dashboard/deliveries', {
      viewer,
      entries: log.slice(0, LOG_PAGE),
      filterNames: Object.fromEntries(filters.map((filter) => [filter.filter_id, filter.name])),
      targetById: Object.fromEntries(targetList.map((target) => [target.target_id, target])),
      targetLabel,
      filters,
      filterId: filterId ?? '',
      previous: offset > 0 ? link(Math.max(0, offset - LOG_PAGE)) : null,
      next: log.length > LOG_PAGE ? link(offset + LOG_PAGE) : null,
      notice: NOTICES[request.query.done ?? ''],
      csrfToken: reply.generateCsrf(),
    });
  });

  app.post(
    '/dashboard/deliveries/:deliveryId/redeliver',
    { ...csrf, schema: { params: DeliveryParams } },
    async (request, reply) => {
      const viewer = await requireViewer(request, sessions, accounts);
      await outbox.redeliver(viewer.account.account_id, request.params.deliveryId);
      return reply.redirect('/dashboard/deliveries?done=redelivered', 303);
    },
  );
}
