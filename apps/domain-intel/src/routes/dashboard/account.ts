import { Type } from '@fastify/type-provider-typebox';
import { isAppError, toPublicError } from '@repo/server-kit';
import type { FastifyReply } from 'fastify';
import type { IssuedKey } from '../../accounts/accounts-service.ts';
import { isPaid, PLAN_IDS, PLANS } from '../../accounts/plans.ts';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { verifySignIn } from '../../dashboard/sign-in.ts';
import type { SignInLinks } from '../../dashboard/sign-in-links.ts';
import { renderSignIn, signInRateLimit, startSession } from '../../dashboard/sign-in-page.ts';
import { inPersonTerms } from '../../dashboard/time-words.ts';
import { jsonForScript } from '../../dashboard/view-data.ts';
import {
  cookieOptions,
  type DashboardViewer,
  findViewer,
  noStore,
  requireViewer,
  SESSION_COOKIE,
} from '../../dashboard/viewer.ts';
import { appError } from '../../error-catalogue.ts';
import { type DashboardApp, NoticeQuery } from './forms.ts';

const USAGE_DAYS = 30;

/** Messages after a redirect, chosen by a fixed word so a link cannot inject text. */
const NOTICES: Record<string, string> = {
  revoked: 'The key is revoked. Calls with it are refused from now on.',
  'revoked-own':
    'The key is revoked. It was the key you signed in with, so that session has ended too: sign in with another key or a sign-in link.',
  'signed-out': 'You are signed out.',
  'signed-out-everywhere': 'You are signed out everywhere: every dashboard session of this account has ended.',
  upgraded: 'Payment received: your new plan applies now.',
  'checkout-pending': 'Stripe has not confirmed the payment yet; your plan changes as soon as it does.',
  'checkout-cancelled': 'Checkout cancelled; nothing was charged.',
  'quota-mails-on': 'Quota e-mails are on: you get one at 80 % and one at 100 % of a day’s calls.',
  'quota-mails-off': 'Quota e-mails are off. Your webhooks still get quota.warning and quota.exhausted.',
};

const SignInForm = Type.Object({ email: Type.Optional(Type.String()), key: Type.Optional(Type.String()) });
const KeyForm = Type.Object({ name: Type.Optional(Type.String()) });
const KeyParams = Type.Object({ keyId: Type.String() });
/** An unticked checkbox sends nothing: absent means off. */
const NotificationsForm = Type.Object({ quota_mails: Type.Optional(Type.String()) });

/** What the Plan card offers: Stripe Checkout and the portal, or the operator's word. */
function billingView(viewer: DashboardViewer, stripeConfigured: boolean) {
  const { billing, subscription } = viewer.account;
  const ended = subscription.status === 'ended';
  const subscribed =
    billing.subscriptionId !== null && ['active', 'trialing', 'past_due'].includes(billing.status ?? '');
  return {
    stripe: stripeConfigured,
    // Plans above the current one (any paid plan once the current one has ended).
    upgrades:
      stripeConfigured && !subscribed
        ? PLAN_IDS.map((id) => PLANS[id]).filter(
            (plan) => isPaid(plan) && (ended || plan.priceUsdPerMonth > viewer.plan.priceUsdPerMonth),
          )
        : [],
    portal: stripeConfigured && billing.customerId !== null,
    paymentFailed: billing.status === 'past_due',
  };
}

/** Sign-in and sign-out, the account overview (plan, usage, keys) and key management. */
export function accountRoutes(app: DashboardApp, sessions: DashboardSessions, signInLinks: SignInLinks): void {
  const { accounts, quota, config } = app.ctx;
  // preValidation, not onRequest: the token is in the form body, which is parsed in between; and
  // before validation, so a form not sent from our page is refused as such, whatever it holds.
  const csrf = { preValidation: app.csrfProtection };

  async function renderOverview(
    reply: FastifyReply,
    viewer: DashboardViewer,
    extra: { issued?: IssuedKey & { action: string }; done?: string | undefined } = {},
  ) {
    const { done, ...shown } = extra;
    const [today, history, keys, invoices] = await Promise.all([
      quota.status(viewer.caller),
      quota.history(viewer.account.account_id, USAGE_DAYS),
      accounts.listKeys(viewer.account.email),
      app.ctx.invoices?.latest(viewer.account.billing.customerId) ?? [],
    ]);
    return noStore(reply).view('dashboard/overview', {
      viewer,
      today,
      keys,
      invoices,
      notice: NOTICES[done ?? ''],
      resetsIn: inPersonTerms(app.ctx.clock.now(), today.resetsAt),
      billing: billingView(viewer, app.ctx.billing !== undefined),
      ...shown,
      csrfToken: reply.generateCsrf(),
      usageJson: jsonForScript({
        days: history.map((entry) => entry.day),
        used: history.map((entry) => entry.used),
        limit: today.limit,
      }),
    });
  }

  app.get('/dashboard', { schema: { querystring: NoticeQuery } }, async (request, reply) => {
    const { done } = request.query;
    const viewer = await findViewer(request, sessions, accounts);
    if (!viewer) {
      return renderSignIn(reply, config, { notice: NOTICES[done ?? ''] });
    }
    return renderOverview(reply, viewer, { done });
  });

  app.post(
    '/dashboard/sign-in',
    {
      ...csrf,
      config: signInRateLimit(config),
      schema: { body: SignInForm },
    },
    async (request, reply) => {
      const form = request.body;
      try {
        const { accountId, keyId } = await verifySignIn(accounts, form);
        return await startSession(reply, sessions, config, accountId, keyId);
      } catch (error) {
        if (!isAppError(error) || error.status >= 500) throw error;
        request.log.info({ code: error.code }, 'dashboard sign-in refused');
        const { status, message } = toPublicError(error);
        return renderSignIn(reply.status(status), config, { email: form.email ?? '', error: message });
      }
    },
  );

  app.post('/dashboard/sign-out', csrf, async (request, reply) => {
    await sessions.end(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, cookieOptions());
    return reply.redirect('/dashboard?done=signed-out', 303);
  });

  // Ends every session of the account (this one too) and every sign-in link not used yet: for a
  // browser left signed in somewhere, or a key that may have leaked.
  app.post('/dashboard/sign-out-everywhere', csrf, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const ended = await sessions.endAll(viewer.account.account_id);
    await signInLinks.revokeAll(viewer.account.account_id);
    request.log.info({ accountId: viewer.account.account_id, sessions: ended }, 'dashboard: signed out everywhere');
    reply.clearCookie(SESSION_COOKIE, cookieOptions());
    return reply.redirect('/dashboard?done=signed-out-everywhere', 303);
  });

  app.post('/dashboard/keys', { ...csrf, schema: { body: KeyForm } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const name = (request.body.name ?? '').trim() || 'default';
    if (name.length > 64 || /[\p{Cc}]/u.test(name)) {
      throw appError('invalid_key_name', 'A key name has at most 64 characters and no control characters.');
    }
    const issued = await accounts.createKey(viewer.account.email, name);
    return renderOverview(reply.status(201), viewer, { issued: { ...issued, action: 'created' } });
  });

  app.post('/dashboard/keys/:keyId/rotate', { ...csrf, schema: { params: KeyParams } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const { keyId } = request.params;
    const issued = await accounts.rotateKey(viewer.account.email, keyId);
    // Every session opened with the old key ends, except this one: it was just shown the new key.
    if (viewer.sessionKeyId === keyId) {
      await sessions.moveToKey(request.cookies[SESSION_COOKIE], keyId, issued.key_id);
    }
    return renderOverview(reply, viewer, { issued: { ...issued, action: 'rotated' } });
  });

  app.post('/dashboard/keys/:keyId/revoke', { ...csrf, schema: { params: KeyParams } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const { keyId } = request.params;
    await accounts.revokeKey(viewer.account.email, keyId);
    if (viewer.sessionKeyId === keyId) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions());
      return reply.redirect('/dashboard?done=revoked-own', 303);
    }
    return reply.redirect('/dashboard?done=revoked', 303);
  });

  app.post('/dashboard/notifications', { ...csrf, schema: { body: NotificationsForm } }, async (request, reply) => {
    const viewer = await requireViewer(request, sessions, accounts);
    const on = request.body.quota_mails === 'on';
    await accounts.setQuotaMails(viewer.account.account_id, on);
    return reply.redirect(`/dashboard?done=quota-mails-${on ? 'on' : 'off'}#notifications-heading`, 303);
  });
}
