/**
 * A small client of the platform's Application API: `token.php` trades the one-time key
 * for a token, `api.php` runs methods with it. It runs on the app's server only, so the
 * token never reaches the browser.
 */
/** `api.total`, `api.pages` and `api.current_page` of every answer. */
export interface Paging {
  total: number;
  pages: number;
  currentPage: number;
}
export interface ApiResult<T> {
  paging: Paging;
  output: T;
}
/** A user as `user.getUser` and `friend.getFriends` return them (optional fields may be absent). */
export interface PlatformUser {
  user_id: number;
  user_name: string;
  full_name: string;
  joined: number;
  country_iso?: string;
  gender?: string;
  email?: string;
  photo_50px?: string;
  photo_50px_square?: string;
  photo_120px?: string;
  photo_original?: string;
  profile_url?: string;
}
export interface PlatformNotification {
  notification_id: number;
  link: string;
  message: string;
  icon: string;
}
export interface PlatformPhoto {
  photo_100px: string;
  photo_240px: string;
  photo_original: string;
}
/** The seven sizes `photo.addPhoto` answers with, in the order the spec lists them. */
export declare const UPLOADED_PHOTO_SIZES: readonly ['original', '75px', '100px', '150px', '240px', '500px', '1024px'];
export type UploadedPhoto = Record<(typeof UPLOADED_PHOTO_SIZES)[number], string>;
export interface PhotoUpload {
  data: Buffer;
  mimeType: string;
  fileName: string;
}
/**
 * What the platform said when it refused a call (its `code` and `message`), or what went
 * wrong reaching it (`platform_unreachable`, `invalid_response`). `status` is the HTTP
 * status the platform answered with, 502/504 when there was no usable answer.
 */
export declare class PlatformApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(
    status: number,
    code: string,
    message: string,
    options?: {
      cause?: unknown;
    },
  );
  /** The token (or key) is no longer accepted: the user has to open the app again. */
  get isAuthFailure(): boolean;
}
export interface PlatformClientOptions {
  /** The platform's address; `token.php` and `api.php` are resolved against it. */
  baseUrl: string;
  timeoutMs: number;
}
export declare class PlatformClient {
  #private;
  constructor(options: PlatformClientOptions);
  /** Trades the one-time `key` the platform put in the canvas URL for a token. */
  exchangeKey(key: string): Promise<string>;
  /** Runs a GET method of api.php, e.g. `call(token, 'friend.getFriends', { page: 2 })`. */
  call<T>(token: string, method: string, params?: Record<string, string | number>): Promise<ApiResult<T>>;
  /** Uploads a photo on behalf of the token's user; answers with the URLs of the seven sizes. */
  addPhoto(token: string, photo: PhotoUpload): Promise<UploadedPhoto>;
}
