import { Type } from '@fastify/type-provider-typebox';
import type { DashboardSessions } from '../../dashboard/session-store.ts';
import { signInLinkMail } from '../../dashboard/sign-in-link-mail.ts';
import { SIGN_IN_LINK_MINUTES, type SignInLinks } from '../../dashboard/sign-in-links.ts';
import { renderSignIn, signInLinkDelivery, signInRateLimit, startSession } from '../../dashboard/sign-in-page.ts';
import { noStore } from '../../dashboard/viewer.ts';
import { appError } from '../../error-catalogue.ts';
import { publicUrlOf } from '../../http/public-url.ts';
import { CountedLimit } from '../../limits/counted-limit.ts';
import type { DashboardApp } from './forms.ts';

const LinkForm = Type.Object({ email: Type.Optional(Type.String()) });
/** The link's one-time token; a missing, used or expired one is sign_in_link_invalid. */
const LinkQuery = Type.Object({ token: Type.Optional(Type.String()) });
const ConfirmForm = Type.Object({ token: Type.Optional(Type.String()) });

/** Sign-in link mails one address receives per hour, so the form cannot fill someone's mailbox. */
export const SIGN_IN_LINK_MAILS_PER_HOUR = 5;

const linkExpired = () =>
  appError('sign_in_link_invalid', 'This sign-in link has expired or was already used. Ask for a new one.');

/**
 * Sign-in without a key: a one-time link, valid for 15 minutes, sent by e-mail to the account's
 * address (or, with DASHBOARD_SIGN_IN_LINKS=log, printed to the server log). Opening it shows a
 * button; only the button's POST (with its CSRF token) signs in, so a link that was merely
 * fetched, e.g. by a mail scanner or a preview bot, is not used up and nobody is signed in by a
 * cross-site GET. The form answers the same whether or not the address has an account, and the
 * mail leaves in the background so the answer's timing does not tell either.
 */
export function signInLinkRoutes(app: DashboardApp, sessions: DashboardSessions, links: SignInLinks): void {
  const { accounts, config, mailer, redis } = app.ctx;
  const delivery = signInLinkDelivery(config, mailer);
  if (delivery === 'off') return;
  const csrf = { preValidation: app.csrfProtection };
  const mailsPerRecipient = new CountedLimit(redis, {
    name: 'sign-in-link-mails-per-recipient',
    max: SIGN_IN_LINK_MAILS_PER_HOUR,
    windowSeconds: 3_600,
    refusal: () => 'Too many sign-in links for this address.',
  });

  app.post(
    '/dashboard/sign-in-link',
    { ...csrf, config: signInRateLimit(config), schema: { body: LinkForm } },
    async (request, reply) => {
      const email = request.body.email ?? '';
      const account = await accounts.findSummary(email);
      if (account) {
        const token = await links.create(account.account_id);
        const link = `${publicUrlOf(config)}/dashboard/sign-in-link?token=${token}`;
        if (delivery === 'log') {
          request.log.info(
            { email: account.email, link },
            `dashboard sign-in link (valid ${SIGN_IN_LINK_MINUTES} minutes, once)`,
          );
        } else {
          const log = request.log;
          void mailsPerRecipient
            .take(account.email)
            .then(() => (mailer ? mailer.send(signInLinkMail(account.email, link, SIGN_IN_LINK_MINUTES)) : undefined))
            .catch((error: unknown) =>
              log.warn({ err: error, accountId: account.account_id }, 'sign-in link not mailed'),
            );
        }
      }
      const where =
        delivery === 'log'
          ? 'is now in the server log'
          : `is on its way by e-mail${delivery === 'outbox' ? " (this server writes mail to its data directory's outbox folder)" : ''}`;
      return renderSignIn(reply, config, {
        email,
        notice: `If ${email} has an account, a sign-in link valid for ${SIGN_IN_LINK_MINUTES} minutes ${where}.`,
      });
    },
  );

  app.get('/dashboard/sign-in-link', { schema: { querystring: LinkQuery } }, async (request, reply) => {
    const { token } = request.query;
    if (!(await links.isValid(token))) throw linkExpired();
    return noStore(reply).view('dashboard/sign-in-link', { token, csrfToken: reply.generateCsrf() });
  });

  app.post('/dashboard/sign-in-link/confirm', { ...csrf, schema: { body: ConfirmForm } }, async (request, reply) => {
    const accountId = await links.consume(request.body.token);
    if (!accountId) throw linkExpired();
    return startSession(reply, sessions, config, accountId, null);
  });
}
