import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { DashboardSessions } from './session-store.ts';
import { cookieOptions, noStore, SESSION_COOKIE } from './viewer.ts';

/** Sign-in links are printed to the log, so they are on by default only where the operator reads it: embedded mode. */
export function signInLinksEnabled(config: Config): boolean {
  if (config.DASHBOARD_SIGN_IN_LINKS === 'auto') return !config.DATABASE_URL;
  return config.DASHBOARD_SIGN_IN_LINKS === 'log';
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
    signInLinks: signInLinksEnabled(config),
    csrfToken: reply.generateCsrf(),
  });
}

/** Starts a session for the account, sets its cookie and sends the browser to the overview. */
export async function startSession(
  reply: FastifyReply,
  sessions: DashboardSessions,
  config: Config,
  accountId: string,
) {
  const { token } = await sessions.create(accountId);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(config.DASHBOARD_SESSION_HOURS * 3600));
  return reply.redirect('/dashboard', 303);
}

/** Route config of every form that tries credentials or asks for a link: limited per client IP. */
export const signInRateLimit = (config: Config) => ({
  rateLimit: { max: config.DASHBOARD_SIGNIN_RATE_PER_15_MIN, timeWindow: '15 minutes' },
});
