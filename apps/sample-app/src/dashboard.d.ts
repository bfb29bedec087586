import {
  type ApiResult,
  type PlatformClient,
  type PlatformNotification,
  type PlatformPhoto,
  type PlatformUser,
} from './platform-client.ts';
/** One part of the page: what the platform answered, or the error it gave, shown in place. */
export type Section<T> =
  | {
      ok: true;
      value: T;
    }
  | {
      ok: false;
      error: {
        code: string;
        message: string;
      };
    };
export interface Dashboard {
  user: PlatformUser;
  friends: Section<ApiResult<PlatformUser[]>>;
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
export declare function loadDashboard(platform: PlatformClient, token: string, friendsPage: number): Promise<Dashboard>;
/** Only http(s) links from the platform are rendered as links; anything else is dropped. */
export declare function httpUrl(value: unknown): string | undefined;
/** `joined` is Unix time in seconds; shown as a calendar date. */
export declare function formatJoined(joined: unknown): string | undefined;
