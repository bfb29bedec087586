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
  app_created: 'Your app is registered. It is in development mode: only you and your testers can open it.',
  app_removed: 'The app is removed; it can no longer act for you.',
  app_saved: 'Your app is saved.',
  app_published: 'Your app is in the directory now.',
  app_unpublished: 'Your app is back in development mode.',
  app_disabled: 'Your app is disabled; all its tokens stopped working.',
  app_enabled: 'Your app is enabled again.',
  app_deleted: 'Your app is deleted.',
  tester_added: 'Tester added.',
  tester_removed: 'Tester removed.',
  secret_rotated: 'Your app has a new secret; the old one no longer works.',
  signing_required: 'token.php now refuses exchanges of your app without a valid sig.',
  signing_optional: 'token.php accepts exchanges of your app without sig again (a wrong sig is still refused).',
  callback_saved: 'The callback URL is saved.',
  event_redelivered: 'The event is queued to be sent again.',
  test_user_created: 'Test user created. Only this app sees it; it can befriend your other test users.',
  test_users_befriended: 'The test users are friends now; each got a notification.',
  test_user_app_removed: 'The test user removed your app: its tokens stopped working and your app was told.',
  profile_saved: 'Your profile is saved.',
  friends_visibility_saved: 'Who can see your friends list is saved.',
  photo_visibility_saved: 'Who can see the photo is saved.',
  photo_deleted: 'Photo deleted.',
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
