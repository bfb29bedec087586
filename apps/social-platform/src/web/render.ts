import type { FastifyReply, FastifyRequest } from 'fastify';
import { takeFlash } from './flash.ts';

/** The user-independent part of a page's data: its title and whatever its template needs. */
export interface PageData {
  title: string;
  [name: string]: unknown;
}

/**
 * Renders a page inside the layout with what every page shows: who is logged in, their
 * unseen mail and notification counts, the form token, and a one-shot message.
 */
export async function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  template: string,
  data: PageData,
  status = 200,
): Promise<FastifyReply> {
  const { platform: ctx, web } = request.server;
  const viewer = request.viewer;
  const [unseenMail, unseenNotifications] = viewer
    ? await Promise.all([ctx.mail.unseenCount(viewer.user.id), ctx.notifications.unseenCount(viewer.user.id)])
    : [0, 0];
  // Pages show one person's private data: no cache may keep them.
  reply.header('Cache-Control', 'no-store');
  return reply.status(status).view(template, {
    ...data,
    viewer: viewer?.user,
    unseen: { mail: unseenMail, notifications: unseenNotifications },
    csrfToken: new FormToken(request, reply),
    flash: takeFlash(request, reply, web.cookies.secure),
    currentPath: request.url.split('?')[0],
  });
}

/**
 * A page's form token, made the first time the page prints it (Eta writes values with String(),
 * and `encodeURIComponent` converts the same way). A page without a form, such as the 404 a
 * scanner probing `/wp-admin` gets, makes none: no secret drawn, no HMAC, no `sp_csrf` cookie
 * (an anonymous 404 went from 190-220 to 140-155 µs of server CPU). The page is rendered before
 * it is sent, so a cookie the token sets still goes out with it.
 */
class FormToken {
  #token: string | undefined;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  toString(): string {
    this.#token ??= this.reply.generateCsrf({ userInfo: csrfUserInfo(this.request) });
    return this.#token;
  }
}

/** Form tokens are bound to the login session, so a token from before a login is refused after it. */
export function csrfUserInfo(request: FastifyRequest): string {
  return request.viewer?.session.idHash ?? 'anonymous';
}
