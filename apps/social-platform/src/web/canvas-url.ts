import { hmacHex, signedText } from '../applications/param-signature.ts';

/** The launch parameters the platform signs, by name: exactly these, whatever else the canvas URL has. */
export const SIGNED_LAUNCH_PARAMS = ['app_id', 'key', 'platform_origin', 'ts', 'user_id'] as const;

export interface Launch {
  canvasUrl: string;
  /** The one-time key for token.php. */
  key: string;
  appId: number;
  userId: number;
  /** Where /js/canvas.js posts its messages: the origin of the page the frame is on. */
  platformOrigin: string;
  /** The app secret that signs the launch. */
  secret: string;
  /** Launch time, Unix seconds: the app refuses stale launches by it. */
  ts: number;
}

/**
 * The address the canvas iframe loads: the app's canvas URL with the one-time key, the APP ID, the
 * user's id, the platform's origin and the launch time added to whatever query it already has, and
 * `sign`: lowercase hex HMAC-SHA256, keyed with the app secret, of `signedText` over those five
 * (`app_id=…&key=…&platform_origin=…&ts=…&user_id=…`). So an app knows who launched it before the
 * exchange, and that the platform did.
 */
export function canvasFrameUrl(launch: Launch): URL {
  const url = new URL(launch.canvasUrl);
  const signed: Record<(typeof SIGNED_LAUNCH_PARAMS)[number], string> = {
    app_id: String(launch.appId),
    key: launch.key,
    platform_origin: launch.platformOrigin,
    ts: String(launch.ts),
    user_id: String(launch.userId),
  };
  for (const name of SIGNED_LAUNCH_PARAMS) url.searchParams.set(name, signed[name]);
  url.searchParams.set('sign', hmacHex(launch.secret, signedText(signed)));
  return url;
}

/**
 * Whether a canvas URL may be framed. An app on the platform's own origin would run with
 * `allow-scripts allow-same-origin` inside a same-origin page and could lift its own sandbox,
 * so such URLs are refused, as is anything but http(s).
 */
export function canvasOriginProblem(canvasUrl: string, platformOrigins: string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(canvasUrl);
  } catch {
    return 'Must be an http:// or https:// URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Must be an http:// or https:// URL.';
  if (url.username || url.password) return 'Must not contain a user name or password.';
  if (platformOrigins.includes(url.origin)) return 'Must be on your own server, not on the platform’s address.';
  return undefined;
}
