import { textsEqual } from '@repo/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApplicationsService } from '../applications/applications-service.ts';

const COOKIE = 'sp_new_secret';
/** Only the page that shows it: /developer/apps/<id>/credentials. */
const COOKIE_PATH = '/developer/apps';

/**
 * Carries an app secret, just made or rotated, across the form's redirect to the one page that
 * shows it: httpOnly, strict, only under /developer, five minutes at most, cleared when read.
 * The platform keeps the secret only sealed, so this is the developer's one chance to copy it.
 */
export function passNewSecret(reply: FastifyReply, appId: number, secret: string, secure: boolean): void {
  reply.setCookie(COOKIE, `${appId}.${secret}`, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: 300,
  });
}

/**
 * The secret passed for one of `ownAppIds`, if it is still that app's secret (a cookie someone
 * else set, or an older secret, shows nothing); the cookie goes either way.
 */
export function takeNewSecret(
  request: FastifyRequest,
  reply: FastifyReply,
  apps: ApplicationsService,
  ownApps: readonly { id: number; secret_sealed: string | null }[],
  secure: boolean,
): { appId: number; secret: string } | undefined {
  const value = request.cookies[COOKIE];
  if (value === undefined) return undefined;
  reply.clearCookie(COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure });
  const dot = value.indexOf('.');
  const appId = Number(value.slice(0, dot));
  const secret = value.slice(dot + 1);
  const app = ownApps.find((candidate) => candidate.id === appId);
  if (!app || app.secret_sealed === null || !textsEqual(apps.secretOf(app), secret)) return undefined;
  return { appId, secret };
}
