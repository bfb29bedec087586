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
    csrfToken: reply.generateCsrf({ userInfo: csrfUserInfo(request) }),
    flash: takeFlash(request, reply, web.cookies.secure),
    currentPath: request.url.split('?')[0],
  });
}

/** Form tokens are bound to the login session, so a token from before a login is refused after it. */
export function csrfUserInfo(request: FastifyRequest): string {
  return request.viewer?.session.idHash ?? 'anonymous';
}
