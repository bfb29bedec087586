import type { FastifyReply, FastifyRequest } from 'fastify';
/**
 * One-shot messages shown on the page a form redirects to. The cookie holds only a key of
 * this table, never text, so nothing a visitor sets can end up on a page.
 */
export declare const FLASH_MESSAGES: {
  readonly welcome: 'Welcome! Your account is ready.';
  readonly logged_in: 'You are logged in.';
  readonly logged_out: 'You are logged out.';
  readonly picture_updated: 'Your profile picture is updated.';
  readonly friend_request_sent: 'Friend request sent.';
  readonly friend_request_accepted: 'You are now friends.';
  readonly friend_request_declined: 'Friend request declined.';
  readonly already_friends: 'You are already friends.';
  readonly already_requested: 'You already sent a request; waiting for an answer.';
  readonly unfriended: 'You are no longer friends.';
  readonly message_sent: 'Message sent.';
  readonly photo_uploaded: 'Photo uploaded.';
  readonly app_created: 'Your app is registered.';
};
export type FlashKey = keyof typeof FLASH_MESSAGES;
export declare function setFlash(reply: FastifyReply, key: FlashKey, secure: boolean): void;
/** The pending message, if any; reading it clears it. */
export declare function takeFlash(request: FastifyRequest, reply: FastifyReply, secure: boolean): string | undefined;
