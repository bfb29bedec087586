import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isPlanId } from '../../accounts/plans.ts';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { requireViewer } from '../../dashboard/viewer.ts';
import { appError } from '../../error-catalogue.ts';
import type { DashboardApp } from './forms.ts';

/** The plan to buy, as the Plan card's buttons send it; anything but a paid plan is invalid_plan. */
const CheckoutForm = Type.Object({ plan: Type.Optional(Type.String()) });
/** Stripe's Checkout Session id, put in the return URL by Stripe itself. */
const ReturnQuery = Type.Object({ session_id: Type.Optional(Type.String()) });

const baseUrlOf = (request: FastifyRequest, publicUrl: string | undefined) =>
  publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;

/**
 * Buying and managing a paid plan from the dashboard through Stripe: Checkout to upgrade, the
 * Customer Portal to change card, see invoices, cancel or resume. Only with Stripe configured;
 * without it the overview says plans are changed by the operator.
 */
export function billingRoutes(app: DashboardApp, sessions: DashboardSessions): void {
  const { accounts, billing, config } = app.ctx;
  if (!billing) return;
  const csrf = { preValidation: app.csrfProtection };

  app.post('/dashboard/billing/checkout', { ...csrf, schema: { body: CheckoutForm } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const plan = request.body.plan ?? '';
    if (!isPlanId(plan) || plan === 'free') {
      throw appError('invalid_plan', 'Choose Starter or Enterprise.');
    }
    const base = baseUrlOf(request, config.PUBLIC_URL);
    const url = await billing.startCheckout(viewer.account, plan, {
      success: `${base}/dashboard/billing/return?session_id={CHECKOUT_SESSION_ID}`,
      cancel: `${base}/dashboard?done=checkout-cancelled`,
    });
    return reply.redirect(url, 303);
  });

  app.get('/dashboard/billing/return', { schema: { querystring: ReturnQuery } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const sessionId = request.query.session_id ?? '';
    const outcome = await billing.finishCheckout(viewer.account, sessionId);
    return reply.redirect(`/dashboard?done=${outcome === 'upgraded' ? 'upgraded' : 'checkout-pending'}`, 303);
  });

  app.post('/dashboard/billing/portal', csrf, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const url = await billing.openPortal(viewer.account, `${baseUrlOf(request, config.PUBLIC_URL)}/dashboard`);
    return reply.redirect(url, 303);
  });
}
