import {
  type ApiResult,
  PlatformApiError,
  type PlatformClient,
  type PlatformFriend,
  type PlatformNotification,
  type PlatformPhoto,
  type PlatformUser,
} from './platform-client.ts';

/** One part of the page: what the platform answered, or the error it gave, shown in place. */
export type Section<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export interface Dashboard {
  user: PlatformUser;
  friends: Section<ApiResult<PlatformFriend[]>>;
  unseenMail: Section<number>;
  unseenNotifications: Section<number>;
  notifications: Section<ApiResult<PlatformNotification[]>>;
  photos: Section<ApiResult<PlatformPhoto[]>>;
}

/**
 * Everything the home page shows, asked of the platform with the session's token.
 * A refused token ends the whole page (the user must reopen the app); any other refusal
 * is shown in its own section while the rest of the page still works.
 */
export async function loadDashboard(platform: PlatformClient, token: string, friendsPage: number): Promise<Dashboard> {
  // Counts first: reading the notification list may mark notifications as seen.
  const [user, friends, unseenMail, unseenNotifications] = await Promise.all([
    platform.call<PlatformUser>(token, 'user.getUser'),
    settle(platform.call<PlatformFriend[]>(token, 'friend.getFriends', { page: friendsPage })),
    settle(platform.call<number>(token, 'mail.getNewCount').then((result) => result.output)),
    settle(platform.call<number>(token, 'notification.getNewCount').then((result) => result.output)),
  ]);
  const [notifications, photos] = await Promise.all([
    settle(platform.call<PlatformNotification[]>(token, 'notification.get')),
    settle(platform.call<PlatformPhoto[]>(token, 'photo.getPhotos')),
  ]);
  return { user: user.output, friends, unseenMail, unseenNotifications, notifications, photos };
}

async function settle<T>(promise: Promise<T>): Promise<Section<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    if (!(error instanceof PlatformApiError) || error.isAuthFailure) throw error;
    return { ok: false, error: { code: error.code, message: error.message } };
  }
}

/** Only http(s) links from the platform are rendered as links; anything else is dropped. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** `joined` is Unix time in seconds; shown as a calendar date. */
export function formatJoined(joined: unknown): string | undefined {
  if (typeof joined !== 'number' || !Number.isFinite(joined)) return undefined;
  return new Date(joined * 1000).toISOString().slice(0, 10);
}
