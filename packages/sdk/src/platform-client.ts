import { PlatformError } from './errors.ts';
import { PLATFORM_ENDPOINTS, PLATFORM_METHODS, type PlatformMethodName } from './operations.ts';
import { type PhotoSource, preparePhoto } from './photo-source.ts';
import {
  type HeaderSource,
  type PlatformEvent,
  type PlatformLaunch,
  signKey,
  type VerifyLaunchOptions,
  verifyLaunch,
  verifyWebhook,
} from './platform-signatures.ts';
import type {
  ApiEnvelope,
  ApiErrorOutput,
  FriendshipCheck,
  PageSelector,
  PhotoVisibility,
  PlatformBatchCall,
  PlatformBatchResult,
  PlatformFriend,
  PlatformNotification,
  PlatformPage,
  PlatformPhoto,
  PlatformUser,
  UploadedPhoto,
  UserSelector,
} from './platform-types.ts';
import { type CallOptions, type ClientOptions, Transport } from './transport.ts';

export interface PlatformAppClientOptions extends ClientOptions {
  /** The token from token.php (see `PlatformAppClient.fromKey`). */
  token: string;
}

export interface AddPhotoOptions {
  /** Base file name shown on the platform; default the file's own name. */
  photoName?: string;
  visibility?: PhotoVisibility;
  /** MIME type of the upload; default the Blob's type or what the first bytes say. */
  contentType?: string;
  /** Largest upload read from a stream, bytes (default 20 MiB, the platform's limit). */
  maxBytes?: number;
}

/**
 * Client of the platform's Application API for one user of one app: trades the one-time
 * key from the canvas URL for a token, then calls api.php methods with it.
 */
export class PlatformAppClient {
  readonly #transport: Transport;
  readonly #token: string;

  constructor(options: PlatformAppClientOptions) {
    this.#token = options.token;
    this.#transport = new Transport(options, readError);
  }

  /**
   * Trades the one-time `key` (single use) for a token and returns a client holding it. With
   * `appSecret` the exchange is signed (`sig`, required by apps that require a signed exchange).
   */
  static async fromKey(
    options: ClientOptions & { key: string; appSecret?: string },
    call?: CallOptions,
  ): Promise<PlatformAppClient> {
    const { key, appSecret, ...clientOptions } = options;
    const transport = new Transport(clientOptions, readError);
    const query = appSecret === undefined ? { key } : { key, sig: await signKey(appSecret, key) };
    const { body } = await transport.send({ method: 'GET', path: PLATFORM_ENDPOINTS.token.path, query }, call);
    const token = (body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') throw new Error('token.php answered without a token.');
    return new PlatformAppClient({ ...clientOptions, token });
  }

  /** Who launched the app, from the canvas URL's signed parameters (throws LaunchVerificationError). */
  static verifyLaunch(
    query: URLSearchParams | string | Readonly<Record<string, unknown>>,
    appSecret: string,
    options?: VerifyLaunchOptions,
  ): Promise<PlatformLaunch> {
    return verifyLaunch(query, appSecret, options);
  }

  /** A callback's event once its Standard Webhooks signature checks out (throws WebhookVerificationError). */
  static verifyWebhook(
    body: string,
    headers: HeaderSource,
    appSecret: string,
    options?: { toleranceSeconds?: number; now?: number },
  ): Promise<PlatformEvent & { id: string }> {
    return verifyWebhook(body, headers, appSecret, options);
  }

  get token(): string {
    return this.#token;
  }

  getUser(selector: UserSelector = {}, options?: CallOptions): Promise<PlatformUser> {
    return this.#single('user.getUser', { user_id: selector.userId }, options);
  }

  /** Friends are User records without `email`. */
  getFriends(selector: PageSelector = {}, options?: CallOptions): Promise<PlatformPage<PlatformFriend>> {
    return this.#page('friend.getFriends', selector, options);
  }

  iterateFriends(selector: UserSelector = {}, options?: CallOptions): AsyncGenerator<PlatformFriend> {
    return this.#iterate('friend.getFriends', selector, options);
  }

  async isFriend(friendUserId: number, selector: UserSelector = {}, options?: CallOptions): Promise<boolean> {
    const output = await this.#single<FriendshipCheck>(
      'friend.isFriend',
      { user_id: selector.userId, friend_user_id: friendUserId },
      options,
    );
    return output.is_friend === 1;
  }

  getNewMailCount(selector: UserSelector = {}, options?: CallOptions): Promise<number> {
    return this.#single('mail.getNewCount', { user_id: selector.userId }, options);
  }

  getNewNotificationCount(selector: UserSelector = {}, options?: CallOptions): Promise<number> {
    return this.#single('notification.getNewCount', { user_id: selector.userId }, options);
  }

  getNotifications(selector: PageSelector = {}, options?: CallOptions): Promise<PlatformPage<PlatformNotification>> {
    return this.#page('notification.get', selector, options);
  }

  iterateNotifications(selector: UserSelector = {}, options?: CallOptions): AsyncGenerator<PlatformNotification> {
    return this.#iterate('notification.get', selector, options);
  }

  getPhotos(selector: PageSelector = {}, options?: CallOptions): Promise<PlatformPage<PlatformPhoto>> {
    return this.#page('photo.getPhotos', selector, options);
  }

  iteratePhotos(selector: UserSelector = {}, options?: CallOptions): AsyncGenerator<PlatformPhoto> {
    return this.#iterate('photo.getPhotos', selector, options);
  }

  /** Uploads a photo to the token's user's album: a file path (Node), Blob, bytes or stream. */
  async addPhoto(source: PhotoSource, photo: AddPhotoOptions = {}, options?: CallOptions): Promise<UploadedPhoto> {
    const { blob, fileName } = await preparePhoto(source, {
      contentType: photo.contentType,
      fileName: photo.photoName,
      maxBytes: photo.maxBytes,
    });
    const form = new FormData();
    if (photo.photoName !== undefined) form.append('photo_name', photo.photoName);
    if (photo.visibility !== undefined) form.append('visibility', photo.visibility);
    form.append('photo', blob, fileName);
    const { body } = await this.#transport.send(
      {
        method: PLATFORM_METHODS['photo.addPhoto'].http,
        path: PLATFORM_ENDPOINTS.api.path,
        // In the query, so the platform refuses a bad token before reading the upload.
        query: { token: this.#token, method: 'photo.addPhoto' },
        body: () => form,
      },
      options,
    );
    return (body as ApiEnvelope<UploadedPhoto>).output;
  }

  /**
   * Up to 25 calls in one request (`method=batch`), sent as a POST form so that POST-only
   * methods (notification.add) may be among them; one result per call, in order. Each call is
   * counted and permission-checked as if it came alone; uploads cannot be batched.
   */
  async batch(calls: readonly PlatformBatchCall[], options?: CallOptions): Promise<PlatformBatchResult[]> {
    const encoded = JSON.stringify(
      calls.map(({ method, params = {} }) => ({
        method,
        params: Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)),
      })),
    );
    const { body } = await this.#transport.send(
      {
        method: 'POST',
        path: PLATFORM_ENDPOINTS.api.path,
        query: { token: this.#token, method: 'batch' },
        body: () => new URLSearchParams({ calls: encoded }),
      },
      options,
    );
    return (body as ApiEnvelope<ApiEnvelope<unknown>[]>).output.map(readBatchAnswer);
  }

  async #call<T>(
    method: PlatformMethodName,
    params: Record<string, number | undefined>,
    options?: CallOptions,
  ): Promise<ApiEnvelope<T>> {
    const { body } = await this.#transport.send(
      {
        method: 'GET',
        path: PLATFORM_ENDPOINTS.api.path,
        query: { token: this.#token, method, ...params },
      },
      options,
    );
    return body as ApiEnvelope<T>;
  }

  async #single<T>(method: PlatformMethodName, params: Record<string, number | undefined>, options?: CallOptions) {
    return (await this.#call<T>(method, params, options)).output;
  }

  async #page<T>(method: PlatformMethodName, selector: PageSelector, options?: CallOptions): Promise<PlatformPage<T>> {
    const { api, output } = await this.#call<T[]>(method, { user_id: selector.userId, page: selector.page }, options);
    return { items: output, total: api.total, pages: api.pages, page: api.current_page };
  }

  async *#iterate<T>(method: PlatformMethodName, selector: UserSelector, options?: CallOptions): AsyncGenerator<T> {
    for (let page = 1; ; page++) {
      const result = await this.#page<T>(method, { ...selector, page }, options);
      yield* result.items;
      if (page >= result.pages || result.items.length === 0) return;
    }
  }
}

/** One envelope of a batch's output as a result: its error, or its output and paging. */
function readBatchAnswer({ api, output }: ApiEnvelope<unknown>): PlatformBatchResult {
  const error = (output as Partial<ApiErrorOutput> | null)?.error;
  if (error && typeof error === 'object' && typeof error.code === 'string') return { ok: false, error };
  return { ok: true, output, total: api.total, pages: api.pages, page: api.current_page };
}

/** `{"api": {…}, "output": {"error": {"code", "message", …}}}` → PlatformError. */
function readError(response: Response, body: unknown): PlatformError {
  const error = (body as { output?: { error?: Record<string, unknown> } } | undefined)?.output?.error;
  const retryAfter = response.headers.get('retry-after');
  if (!error || typeof error.code !== 'string') {
    return new PlatformError({
      status: response.status,
      code: response.status >= 500 ? 'internal_error' : 'unexpected_response',
      message: `The platform answered ${response.status} without an error body.`,
    });
  }
  const { code, message, ...details } = error;
  return new PlatformError({
    status: response.status,
    code,
    message: typeof message === 'string' ? message : code,
    details,
    retryAfterSeconds: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined,
  });
}
