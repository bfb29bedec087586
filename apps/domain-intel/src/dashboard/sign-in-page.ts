import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Mailer } from '../mail/index.ts';
import type { DashboardSessions } from './session-store.ts';
import { cookieOptions, noStore, SESSION_COOKIE } from './viewer.ts';

/** How sign-in links reach people: by mail where account mail works, in the log where the operator asked so, or not at all. */
export type SignInLinkDelivery = 'mail' | 'outbox' | 'log' | 'off';

export function signInLinkDelivery(config: Config, mailer: Mailer | undefined): SignInLinkDelivery {
  if (config.DASHBOARD_SIGN_IN_LINKS === 'auto')
    return mailer ? (mailer.transport === 'outbox' ? 'outbox' : 'mail') : 'off';
  return config.DASHBOARD_SIGN_IN_LINKS;
}

export interface SignInPageValues {
  email?: string;
  error?: string;
  notice?: string;
}

export function renderSignIn(reply: FastifyReply, config: Config, values: SignInPageValues = {}) {
  return noStore(reply).view('dashboard/sign-in', {
    email: '',
    ...values,
    signInLinks: signInLinkDelivery(config, reply.server.ctx.mailer),
    csrfToken: reply.generateCsrf(),
  });
}

/**
 * Starts a session for the account, sets its cookie and sends the browser to the overview.
 * `keyId`: the API key it was opened with (the session ends with it); null for a sign-in link.
 */
export async function startSession(
  reply: FastifyReply,
  sessions: DashboardSessions,
  config: Config,
  accountId: string,
  keyId: string | null,
) {
  const { token } = await sessions.create(accountId, keyId);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(config.DASHBOARD_SESSION_HOURS * 3600));
  return reply.redirect('/dashboard', 303);
}

/** Route config of every form that tries credentials or asks for a link: limited per client IP. */
export const signInRateLimit = (config: Config) => ({
  rateLimit: { max: config.DASHBOARD_SIGNIN_RATE_PER_15_MIN, timeWindow: '15 minutes' },
});
