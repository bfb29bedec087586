import type { FastifyReply, FastifyRequest } from 'fastify';
/** The user-independent part of a page's data: its title and whatever its template needs. */
export interface PageData {
  title: string;
  [name: string]: unknown;
}
/**
 * Renders a page inside the layout with what every page shows: who is logged in, their
 * unseen mail and notification counts, the form token, and a one-shot message.
 */
export declare function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  template: string,
  data: PageData,
  status?: number,
): Promise<FastifyReply>;
/** Form tokens are bound to the login session, so a token from before a login is refused after it. */
export declare function csrfUserInfo(request: FastifyRequest): string;
