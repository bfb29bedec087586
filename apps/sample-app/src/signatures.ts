import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The platform's signatures, checked and made with the app secret (see the app guide, "App
 * secrets, signed launches and callbacks"). Every HMAC is SHA-256 keyed with the secret's UTF-8
 * bytes as they are; the secret stays on this server.
 */

/** The launch parameters the platform signs, in the (sorted) order they are signed in. */
const SIGNED_LAUNCH_PARAMS = ['app_id', 'key', 'platform_origin', 'ts', 'user_id'] as const;
/** A launch older (or newer) than this is refused: the key's lifetime. */
const LAUNCH_MAX_AGE_SECONDS = 300;
/** A callback whose timestamp is further than this from our clock is refused (a replay). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, text: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(text, 'utf8').digest('hex');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** token.php's `sig`: the HMAC of the one-time key. */
export const signKey = (appSecret: string, key: string): string => hmacHex(appSecret, key);

export interface Launch {
  appId: string;
  userId: string;
  key: string;
  platformOrigin: string;
}

/** Who launched the app, when the canvas URL's `sign` checks out and `ts` is fresh; else why not. */
export function verifyLaunch(
  query: Readonly<Record<string, unknown>>,
  appSecret: string,
  nowMs: number,
): { launch: Launch } | { refused: string } {
  const values: Record<string, string> = {};
  for (const name of SIGNED_LAUNCH_PARAMS) {
    const value = query[name];
    if (typeof value !== 'string') return { refused: `The launch has no ${name}.` };
    values[name] = value;
  }
  const text = SIGNED_LAUNCH_PARAMS.map((name) => `${name}=${values[name]}`).join('&');
  const sign = typeof query.sign === 'string' ? query.sign : '';
  if (!sameText(hmacHex(appSecret, text), sign)) return { refused: 'The launch is not signed by the platform.' };
  const ts = values.ts!;
  if (!/^\d{1,12}$/.test(ts) || Math.abs(Math.floor(nowMs / 1000) - Number(ts)) > LAUNCH_MAX_AGE_SECONDS) {
    return { refused: 'The launch is too old: open the app again from the platform.' };
  }
  return {
    launch: {
      appId: values.app_id!,
      userId: values.user_id!,
      key: values.key!,
      platformOrigin: values.platform_origin!,
    },
  };
}

/** The Standard Webhooks key of the app's callbacks, derived from the app secret. */
const webhookKey = (appSecret: string) =>
  createHmac('sha256', Buffer.from(appSecret, 'utf8')).update('social-platform webhook key v1', 'utf8').digest();

/** An event the platform posted to this app. */
export interface PlatformEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The event of a callback whose Standard Webhooks signature (`v1,` + base64 HMAC of
 * `webhook-id.webhook-timestamp.body`) checks out with the derived key, or undefined.
 * `body` is the raw request body, byte for byte.
 */
export function verifyWebhook(
  body: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  appSecret: string,
  nowMs: number,
): PlatformEvent | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return undefined;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return undefined;
  const expected = createHmac('sha256', webhookKey(appSecret))
    .update(`${id}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  const signed = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    return version === 'v1' && signature !== undefined && sameText(signature, expected);
  });
  if (!signed) return undefined;
  const event = JSON.parse(body) as Omit<PlatformEvent, 'id'>;
  return { id, ...event };
}

/** The form of a data deletion report to its status URL: `status`, `ts` and their `sign`. */
export function signDeletionReport(appSecret: string, requestId: string, status: string, nowMs: number) {
  const ts = String(Math.floor(nowMs / 1000));
  return { status, ts, sign: hmacHex(appSecret, `request_id=${requestId}&status=${status}&ts=${ts}`) };
}
