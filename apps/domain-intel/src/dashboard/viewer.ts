import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountSummary, AccountsService } from '../accounts/accounts-service.ts';
import type { Caller } from '../accounts/caller.ts';
import { PLANS, type Plan } from '../accounts/plans.ts';
import { appError } from '../error-catalogue.ts';
import { pageCookieOptions } from '../http/form-protection.ts';
import type { DashboardSessions } from './session-store.ts';

export const SESSION_COOKIE = 'di_dashboard';
export const CSRF_COOKIE = 'di_dashboard_csrf';

/** Only the dashboard's own paths see its cookies (see pageCookieOptions). */
export const cookieOptions = (maxAgeSeconds?: number): CookieSerializeOptions =>
  pageCookieOptions('/dashboard', maxAgeSeconds);

/** Who is looking at the dashboard: the signed-in account, its plan and subscription. */
export interface DashboardViewer {
  account: AccountSummary;
  plan: Plan;
  /** The account as the quota service knows callers (no key: the dashboard is not an API call). */
  caller: Caller;
  /** The API key this session was opened with (null: a sign-in link). */
  sessionKeyId: string | null;
}

export async function findViewer(
  request: FastifyRequest,
  sessions: DashboardSessions,
  accounts: AccountsService,
): Promise<DashboardViewer | undefined> {
  const session = await sessions.accountOf(request.cookies[SESSION_COOKIE]);
  if (!session) return undefined;
  const account = await accounts.findSummary(session.email);
  if (!account) return undefined;
  const plan = PLANS[account.plan];
  return {
    account,
    plan,
    caller: { accountId: account.account_id, keyId: '', email: account.email, plan },
    sessionKeyId: session.keyId,
  };
}

/** For form posts and downloads: the viewer, or 401 that sends the person to the sign-in page. */
export async function requireViewer(
  request: FastifyRequest,
  sessions: DashboardSessions,
  accounts: AccountsService,
): Promise<DashboardViewer> {
  const viewer = await findViewer(request, sessions, accounts);
  if (!viewer) throw appError('not_signed_in', 'Your dashboard session has ended. Sign in again.');
  return viewer;
}

/** Pages carry keys and account data: never cached by a browser or proxy. */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}
