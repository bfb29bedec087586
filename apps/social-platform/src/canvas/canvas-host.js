/*
 * /js/canvas-host.js — the canvas page's half of /js/canvas.js: sizes the app's iframe as the
 * app asks. A message counts only when it comes from the app's registered origin
 * (`data-app-origin` on the iframe) and from that iframe's own window, and has the expected
 * shape; heights are kept between MIN_HEIGHT and MAX_HEIGHT. When a page of the app has loaded
 * in the frame, it is asked for its height (`measure`), posted to the app's origin only. `reopen`
 * reloads this page, which gives the app a fresh key, at most once every ten seconds. `navigate`
 * opens a path of the platform in this page, only during a user's click in the app (the frame has
 * the focus, and the click's transient activation reaches this page too) and only on this page's
 * own origin.
 */
(() => {
  const MESSAGE_TYPE = 'platform-canvas';
  const MIN_HEIGHT = 150;
  const MAX_HEIGHT = 20000;
  /** An app asking to be reopened more often than this is in a loop: the page is not reloaded again. */
  const REOPEN_INTERVAL_MS = 10000;
  const REOPENED_AT = 'platform-canvas:reopened-at';
  // A path of this site: one leading slash, no backslash or control character (which URL parsers
  // read as a slash or drop), so that it cannot name another host.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
  const SITE_PATH = /^\/(?![/\\])[^\\\u0000-\u001f\u007f]*$/;
  const frame = document.querySelector('iframe[data-app-origin]');
  if (!frame) return;
  const appOrigin = frame.getAttribute('data-app-origin');

  // Each page the app loads into the frame is asked for its height once it is there, so a
  // message the app sent before this listener existed is not needed.
  frame.addEventListener('load', () => {
    frame.contentWindow?.postMessage({ type: MESSAGE_TYPE, action: 'measure' }, appOrigin);
  });

  window.addEventListener('message', (event) => {
    if (event.origin !== appOrigin || event.source !== frame.contentWindow) return;
    const message = event.data;
    if (typeof message !== 'object' || message === null || message.type !== MESSAGE_TYPE) return;
    if (message.action === 'reopen') {
      // Reloading the canvas page issues a new one-time key for the app (its token has ended).
      const last = Number(window.sessionStorage.getItem(REOPENED_AT));
      if (Date.now() - last < REOPEN_INTERVAL_MS) return;
      window.sessionStorage.setItem(REOPENED_AT, String(Date.now()));
      window.location.reload();
      return;
    }
    if (message.action === 'navigate') {
      // Only during the user's click in the app: an app cannot take the page away on its own. A click
      // in the frame focuses it (the page's active element) and activates this page too; either
      // alone is not enough (a click on this page a moment ago activates it without the frame).
      if (document.activeElement !== frame) return;
      if (window.navigator?.userActivation && !window.navigator.userActivation.isActive) return;
      const path = message.path;
      if (typeof path !== 'string' || !SITE_PATH.test(path)) return;
      const url = new URL(path, window.location.origin);
      if (url.origin !== window.location.origin) return;
      window.location.assign(url.pathname + url.search + url.hash);
      return;
    }
    if (message.action === 'resize') {
      const height = message.height;
      if (typeof height !== 'number' || !Number.isFinite(height)) return;
      const clamped = Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)));
      // The app asks for the height of its page; the frame's own border comes on top.
      const border = frame.offsetHeight - frame.clientHeight || 0;
      frame.style.height = `${clamped + border}px`;
      frame.setAttribute('data-height', String(clamped));
    }
  });
})();
