import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * One-shot messages shown on the page a form redirects to. The cookie holds only a key of
 * this table, never text, so nothing a visitor sets can end up on a page.
 */
export const FLASH_MESSAGES = {
  welcome: 'Welcome! Your account is ready.',
  logged_in: 'You are logged in.',
  logged_out: 'You are logged out.',
  picture_updated: 'Your profile picture is updated.',
  friend_request_sent: 'Friend request sent.',
  friend_request_accepted: 'You are now friends.',
  friend_request_declined: 'Friend request declined.',
  already_friends: 'You are already friends.',
  already_requested: 'You already sent a request; waiting for an answer.',
  unfriended: 'You are no longer friends.',
  message_sent: 'Message sent.',
  photo_uploaded: 'Photo uploaded.',
  app_created: 'Your app is registered.',
} as const;

export type FlashKey = keyof typeof FLASH_MESSAGES;

const FLASH_COOKIE = 'sp_flash';

export function setFlash(reply: FastifyReply, key: FlashKey, secure: boolean): void {
  reply.setCookie(FLASH_COOKIE, key, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: 60 });
}

/** The pending message, if any; reading it clears it. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply, secure: boolean): string | undefined {
  const key = request.cookies[FLASH_COOKIE];
  if (key === undefined) return undefined;
  reply.clearCookie(FLASH_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  return Object.hasOwn(FLASH_MESSAGES, key) ? FLASH_MESSAGES[key as FlashKey] : undefined;
}
