/**
 * The platform's signatures, as an app's server checks and makes them: token.php's `sig`, the
 * signed launch parameters of the canvas URL, the Standard Webhooks signatures of callbacks and
 * the signed data deletion report. Web Crypto only (Node 20+, browsers, workers), but the app
 * secret belongs on the app's server: never ship it to a page.
 */

const encoder = new TextEncoder();

async function hmac(key: Uint8Array<ArrayBuffer> | string, message: string): Promise<Uint8Array<ArrayBuffer>> {
  const keyBytes = typeof key === 'string' ? encoder.encode(key) : key;
  const cryptoKey = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Equality that takes as long whatever the first difference: signatures are compared with it. */
function sameText(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  // A signature's length is no secret (hex or base64 of 32 bytes): only the bytes are compared in constant time.
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= left[index]! ^ right[index]!;
  return difference === 0;
}

/** Lowercase hex HMAC-SHA256 of `message` with the app secret, both as UTF-8. */
export async function signWithAppSecret(appSecret: string, message: string): Promise<string> {
  return hex(await hmac(appSecret, message));
}

/** token.php's `sig`: the HMAC of the one-time key, exactly as it came. */
export function signKey(appSecret: string, key: string): Promise<string> {
  return signWithAppSecret(appSecret, key);
}

/** `name=value` pairs sorted by name, joined by `&`, values as decoded: what launch and report signatures cover. */
export function signedText(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** The launch parameters the platform signs. */
export const SIGNED_LAUNCH_PARAMS = ['app_id', 'key', 'platform_origin', 'ts', 'user_id'] as const;

/** Who opened the app, as the verified canvas URL says. */
export interface PlatformLaunch {
  appId: number;
  userId: number;
  /** The one-time key for token.php. */
  key: string;
  /** The origin of the platform page the canvas is on (where canvas.js posts). */
  platformOrigin: string;
  /** Launch time, Unix seconds. */
  ts: number;
}

export class LaunchVerificationError extends Error {
  constructor(
    readonly reason: 'missing_parameter' | 'invalid_signature' | 'stale_launch' | 'wrong_app',
    message: string,
  ) {
    super(message);
    this.name = 'LaunchVerificationError';
  }
}

export interface VerifyLaunchOptions {
  /** The launch is refused when `ts` is further than this from now (default 300 s, the key's lifetime). */
  maxAgeSeconds?: number;
  /** Your APP ID: a launch signed for another app is refused (optional, the secret already binds it). */
  appId?: number;
  /** Now, Unix ms (tests). */
  now?: number;
}

/**
 * Checks the canvas URL's `sign` over app_id, key, platform_origin, ts and user_id with the app
 * secret, and refuses a stale launch; returns who launched the app. Takes the page's query (a
 * URLSearchParams, a `?…` string or a parsed query object).
 */
export async function verifyLaunch(
  query: URLSearchParams | string | Readonly<Record<string, unknown>>,
  appSecret: string,
  options: VerifyLaunchOptions = {},
): Promise<PlatformLaunch> {
  const params =
    query instanceof URLSearchParams
      ? query
      : typeof query === 'string'
        ? new URLSearchParams(query)
        : new URLSearchParams(
            Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
          );
  const signed: Record<string, string> = {};
  for (const name of SIGNED_LAUNCH_PARAMS) {
    const values = params.getAll(name);
    if (values.length !== 1) {
      throw new LaunchVerificationError('missing_parameter', `The launch must carry ${name} once.`);
    }
    signed[name] = values[0]!;
  }
  const sign = params.get('sign') ?? '';
  if (!sameText(await signWithAppSecret(appSecret, signedText(signed)), sign.toLowerCase())) {
    throw new LaunchVerificationError('invalid_signature', 'sign does not match: not launched by the platform.');
  }
  const ts = Number(signed.ts);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (!Number.isSafeInteger(ts) || Math.abs(now - ts) > (options.maxAgeSeconds ?? 300)) {
    throw new LaunchVerificationError(
      'stale_launch',
      'The launch is too old (or from the future): open the app again.',
    );
  }
  const appId = Number(signed.app_id);
  if (options.appId !== undefined && appId !== options.appId) {
    throw new LaunchVerificationError('wrong_app', `The launch is for APP ID ${appId}.`);
  }
  return { appId, userId: Number(signed.user_id), key: signed.key!, platformOrigin: signed.platform_origin!, ts };
}

/** What the platform derives each app's webhook key under. */
export const WEBHOOK_KEY_LABEL = 'social-platform webhook key v1';

/** The Standard Webhooks secret of an app's callbacks: `whsec_` + base64(HMAC-SHA256(app secret, label)). */
export async function webhookSecretOf(appSecret: string): Promise<string> {
  return `whsec_${base64(await hmac(appSecret, WEBHOOK_KEY_LABEL))}`;
}

/** The events the platform posts to an app's callback URL. */
export type PlatformEvent =
  | {
      type: 'app.deauthorized';
      timestamp: string;
      data: { app_id: number; user_id: number; deauthorized_at: string };
    }
  | {
      type: 'user.data_deletion_requested';
      timestamp: string;
      data: { app_id: number; user_id: number; request_id: string; status_url: string; requested_at: string };
    }
  | {
      type: 'app.permissions_changed';
      timestamp: string;
      data: { app_id: number; user_id: number; permissions: string[]; previous_permissions: string[] };
    };

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Headers as Node, fetch or a framework gives them. */
export type HeaderSource = Headers | Readonly<Record<string, string | string[] | undefined>>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a callback the Standard Webhooks way: `v1,` + base64(HMAC-SHA256 with the webhook key of
 * `webhook-id.webhook-timestamp.body`), a timestamp within `toleranceSeconds` (default 300); returns
 * the event. `body` must be the raw request body, byte for byte (not re-serialised JSON).
 */
export async function verifyWebhook(
  body: string,
  headers: HeaderSource,
  appSecret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<PlatformEvent & { id: string }> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, -timestamp or -signature.');
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('The webhook timestamp is too old or too new.');
  }
  const key = fromBase64((await webhookSecretOf(appSecret)).slice('whsec_'.length));
  const expected = base64(await hmac(key, `${id}.${timestamp}.${body}`));
  const matches = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .some(([version, signature]) => version === 'v1' && signature !== undefined && sameText(signature, expected));
  if (!matches) throw new WebhookVerificationError('No webhook-signature matches.');
  return { id, ...(JSON.parse(body) as PlatformEvent) };
}

/** What a data deletion report says: work started, or done. */
export type DeletionStatus = 'in_progress' | 'completed';

/** The form fields of a report to a deletion request's status URL: status, ts and sign. */
export async function signDeletionReport(
  appSecret: string,
  requestId: string,
  status: DeletionStatus,
  now = Date.now(),
): Promise<{ status: DeletionStatus; ts: string; sign: string }> {
  const ts = String(Math.floor(now / 1000));
  const sign = await signWithAppSecret(appSecret, signedText({ request_id: requestId, status, ts }));
  return { status, ts, sign };
}
