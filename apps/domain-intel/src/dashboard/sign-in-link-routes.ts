import type { FastifyInstance } from 'fastify';
import { appError } from '../error-catalogue.ts';
import type { DashboardSessions } from './session-store.ts';
import { SIGN_IN_LINK_MINUTES, type SignInLinks } from './sign-in-links.ts';
import { renderSignIn, signInLinksEnabled, signInRateLimit, startSession } from './sign-in-page.ts';
import { noStore } from './viewer.ts';

const linkExpired = () =>
  appError('sign_in_link_invalid', 'This sign-in link has expired or was already used. Ask for a new one.');

/**
 * Sign-in without a key, for the embedded mode: the link is printed to the server log (there
 * is no mail delivery), valid for 15 minutes and once. Opening it shows a button; only the
 * button's POST (with its CSRF token) signs in, so a link that was merely fetched, e.g. by a
 * preview bot, is not used up and nobody is signed in by a cross-site GET.
 */
export function signInLinkRoutes(app: FastifyInstance, sessions: DashboardSessions, links: SignInLinks): void {
  const { accounts, config } = app.ctx;
  if (!signInLinksEnabled(config)) return;
  const csrf = { preHandler: app.csrfProtection };

  app.post('/dashboard/sign-in-link', { ...csrf, config: signInRateLimit(config) }, async (request, reply) => {
    const email = (request.body as { email?: string } | undefined)?.email;
    const account = await accounts.findSummary(email ?? '');
    if (account) {
      const token = await links.create(account.account_id);
      const base = config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
      request.log.info(
        { email: account.email, link: `${base}/dashboard/sign-in-link?token=${token}` },
        `dashboard sign-in link (valid ${SIGN_IN_LINK_MINUTES} minutes, once)`,
      );
    }
    // The same answer whether or not the address has an account.
    return renderSignIn(reply, config, {
      email: email ?? '',
      notice: `If ${email} has an account, a sign-in link valid for ${SIGN_IN_LINK_MINUTES} minutes is now in the server log.`,
    });
  });

  app.get('/dashboard/sign-in-link', async (request, reply) => {
    const { token } = request.query as { token?: string };
    if (!(await links.isValid(token))) throw linkExpired();
    return noStore(reply).view('dashboard/sign-in-link', { token, csrfToken: reply.generateCsrf() });
  });

  app.post('/dashboard/sign-in-link/confirm', csrf, async (request, reply) => {
    const accountId = await links.consume((request.body as { token?: string } | undefined)?.token);
    if (!accountId) throw linkExpired();
    return startSession(reply, sessions, config, accountId);
  });
}
