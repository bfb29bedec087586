/**
 * The address the canvas iframe loads: the app's canvas URL with the one-time key and the
 * APP ID added to whatever query it already has.
 */
export declare function canvasFrameUrl(canvasUrl: string, key: string, appId: number): URL;
/**
 * Whether a canvas URL may be framed. An app on the platform's own origin would run with
 * `allow-scripts allow-same-origin` inside a same-origin page and could lift its own sandbox,
 * so such URLs are refused, as is anything but http(s).
 */
export declare function canvasOriginProblem(canvasUrl: string, platformOrigins: string[]): string | undefined;
