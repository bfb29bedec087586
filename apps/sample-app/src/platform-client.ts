/**
 * A small client of the platform's Application API: `token.php` trades the one-time key
 * for a token, `api.php` runs methods with it. It runs on the app's server only, so the
 * token never reaches the browser.
 *
 * The records below restate the fields this app reads instead of importing the platform's
 * contracts (`@repo/contracts/platform` in the platform's repository): the sample app is the
 * code third-party developers copy out of that repository, so it depends on no package of it.
 * The reference is the platform's served `/openapi.json` (components User, Friend, Photo …).
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

/**
 * A user as `friend.getFriends` returns them. Every field is always there: the `photo_*` are the
 * platform's default avatar for a user without a picture, `country_iso` and `gender` null when
 * the user has not said.
 */
export interface PlatformFriend {
  user_id: number;
  user_name: string;
  full_name: string;
  /** Unix time, seconds. */
  joined: number;
  country_iso: string | null;
  gender: string | null;
  photo_50px: string;
  photo_50px_square: string;
  photo_120px: string;
  photo_original: string;
  profile_url: string;
}

/** `user.getUser`: a friend's fields plus `email`, given only for the token's own user with the `email` permission. */
export interface PlatformUser extends PlatformFriend {
  email: string | null;
}

export interface PlatformNotification {
  notification_id: number;
  link: string;
  message: string;
  icon: string;
}

/** Friends-only and private photos come with signed URLs that expire (an hour or two): show them, do not store them. */
export interface PlatformPhoto {
  photo_id: number;
  name: string;
  photo_100px: string;
  photo_240px: string;
  photo_original: string;
}

/** The seven sizes `photo.addPhoto` answers with, in the order the spec lists them. */
export const UPLOADED_PHOTO_SIZES = ['original', '75px', '100px', '150px', '240px', '500px', '1024px'] as const;
export type UploadedPhoto = Record<(typeof UPLOADED_PHOTO_SIZES)[number], string>;

export interface PhotoUpload {
  data: Buffer;
  mimeType: string;
  fileName: string;
}

/** Refusals that end the app's access as a whole (not one method's): the user must open it again. */
const ACCESS_ENDED = new Set(['app_disabled', 'consent_required', 'app_in_development']);

/**
 * What the platform said when it refused a call (its `code` and `message`), or what went
 * wrong reaching it (`platform_unreachable`, `invalid_response`). `status` is the HTTP
 * status the platform answered with, 502/504 when there was no usable answer;
 * `retryAfterSeconds` is its Retry-After on a 429.
 */
export class PlatformApiError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number | undefined } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'PlatformApiError';
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /**
   * The token (or key) is no longer accepted — it expired (TOKEN_TTL_SECONDS, an hour by
   * default), the user opened the app again elsewhere and the key was replayed, or removed the
   * app — or the app may no longer act for the user: only opening the app again helps.
   */
  get isAuthFailure(): boolean {
    return this.status === 401 || ACCESS_ENDED.has(this.code);
  }

  /** The platform's rate limit (per app and user): wait `retryAfterSeconds`, then try again. */
  get isRateLimited(): boolean {
    return this.status === 429;
  }
}

export interface PlatformClientOptions {
  /** The platform's address; `token.php` and `api.php` are resolved against it. */
  baseUrl: string;
  timeoutMs: number;
}

export class PlatformClient {
  readonly #base: URL;
  readonly #timeoutMs: number;

  constructor(options: PlatformClientOptions) {
    // Resolve scripts relative to the base path, so a platform under /social/ works too.
    this.#base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.#timeoutMs = options.timeoutMs;
  }

  /**
   * Trades the one-time `key` the platform put in the canvas URL for a token; with `sig` (the HMAC of
   * the key with the app secret) only this app's server can, whoever else sees the key.
   */
  async exchangeKey(key: string, sig?: string): Promise<string> {
    const url = new URL('token.php', this.#base);
    url.searchParams.set('key', key);
    if (sig !== undefined) url.searchParams.set('sig', sig);
    const body = await this.#request(url, { method: 'GET' });
    const token = (body as { token?: unknown }).token;
    if (typeof token !== 'string' || token === '') {
      throw new PlatformApiError(502, 'invalid_response', 'The platform answered token.php without a token.');
    }
    return token;
  }

  /** Runs a GET method of api.php, e.g. `call(token, 'friend.getFriends', { page: 2 })`. */
  async call<T>(token: string, method: string, params: Record<string, string | number> = {}): Promise<ApiResult<T>> {
    const url = new URL('api.php', this.#base);
    url.searchParams.set('token', token);
    url.searchParams.set('method', method);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
    return toApiResult<T>(await this.#request(url, { method: 'GET' }));
  }

  /** Uploads a photo on behalf of the token's user; answers with the URLs of the seven sizes. */
  async addPhoto(token: string, photo: PhotoUpload): Promise<UploadedPhoto> {
    const form = new FormData();
    // Plain fields first, so the platform knows who is calling before it reads the file.
    form.set('token', token);
    form.set('method', 'photo.addPhoto');
    form.set('photo_name', photo.fileName);
    form.set('photo', new Blob([new Uint8Array(photo.data)], { type: photo.mimeType }), photo.fileName);
    const result = toApiResult<UploadedPhoto>(
      await this.#request(new URL('api.php', this.#base), { method: 'POST', body: form }),
    );
    const missing = UPLOADED_PHOTO_SIZES.filter((size) => typeof result.output?.[size] !== 'string');
    if (missing.length > 0) {
      throw new PlatformApiError(502, 'invalid_response', `photo.addPhoto answered without: ${missing.join(', ')}.`);
    }
    return result.output;
  }

  async #request(url: URL, init: RequestInit): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs), redirect: 'error' });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new PlatformApiError(
        timedOut ? 504 : 502,
        'platform_unreachable',
        timedOut
          ? `The platform did not answer within ${this.#timeoutMs} ms.`
          : `The platform at ${this.#base.origin} could not be reached.`,
        { cause: error },
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new PlatformApiError(
        response.ok ? 502 : response.status,
        'invalid_response',
        `The platform answered ${url.pathname} with HTTP ${response.status} and no JSON body.`,
        { cause: error },
      );
    }
    const refusal = findError(body);
    if (refusal || !response.ok) {
      throw new PlatformApiError(
        response.ok ? 502 : response.status,
        refusal?.code ?? 'platform_error',
        refusal?.message ?? `The platform answered ${url.pathname} with HTTP ${response.status}.`,
        { retryAfterSeconds: retryAfterOf(response) },
      );
    }
    return body;
  }
}

/** Retry-After in seconds (the platform sends a number of seconds; an HTTP date is read too). */
function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  if (/^\d+$/.test(header)) return Number(header);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The platform puts errors in `output.error` (api.php) or at the top level (token.php). */
function findError(body: unknown): { code: string; message: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as { error?: unknown; output?: { error?: unknown } };
  const error = record.output?.error ?? record.error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : 'platform_error',
    message: typeof message === 'string' ? message : 'The platform refused the call.',
  };
}

function toApiResult<T>(body: unknown): ApiResult<T> {
  const { api, output } = (body ?? {}) as { api?: Record<string, unknown>; output?: unknown };
  if (!api || typeof api !== 'object' || output === undefined) {
    throw new PlatformApiError(502, 'invalid_response', 'The platform answered without the api/output envelope.');
  }
  const number = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  return {
    paging: { total: number(api.total, 0), pages: number(api.pages, 1), currentPage: number(api.current_page, 1) },
    output: output as T,
  };
}
