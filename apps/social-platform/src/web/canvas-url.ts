/**
 * The address the canvas iframe loads: the app's canvas URL with the one-time key, the APP ID
 * and the platform's origin (where /js/canvas.js posts its messages) added to whatever query it
 * already has.
 */
export function canvasFrameUrl(canvasUrl: string, key: string, appId: number, platformOrigin: string): URL {
  const url = new URL(canvasUrl);
  url.searchParams.set('key', key);
  url.searchParams.set('app_id', String(appId));
  url.searchParams.set('platform_origin', platformOrigin);
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
