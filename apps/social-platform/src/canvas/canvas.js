/*
 * /js/canvas.js — the platform's script for apps shown in its canvas iframe.
 *
 *   <script src="https://platform.example/js/canvas.js" data-platform-origin="https://platform.example"
 *           data-auto-resize defer></script>
 *
 * PlatformCanvas.resize(height?)  asks the platform to make the iframe `height` CSS pixels tall
 *                                 (default: the height of this page's <html> element).
 * PlatformCanvas.autoResize()     does so now and whenever the page's height changes; returns a
 *                                 function that stops it. `data-auto-resize` on the tag calls it.
 * PlatformCanvas.reopen()         asks the platform to open the app again: the canvas page reloads
 *                                 and the app gets a fresh one-time key (for a token that ended).
 *                                 A click on an element with `data-platform-reopen` does the same.
 * PlatformCanvas.navigate(path)   asks the platform to open `path` (a path of the platform, such as
 *                                 "/u/ann") in the top page, in place of the canvas. The platform
 *                                 does so only during a user's click (transient activation).
 *                                 A click on a link to the platform with target="_parent" or
 *                                 target="_top" (phpFox apps' profile links) does the same: the
 *                                 canvas sandbox blocks such links, so the script carries them.
 * PlatformCanvas.platformOrigin   the origin messages go to, or null when it is not known.
 *
 * Messages are posted only to the platform's origin, never to '*': the platform passes it in the
 * canvas URL (`platform_origin=`); the script reads it from `data-platform-origin`, else from
 * the page's own query, else from what an earlier page of this frame remembered. Without it the
 * script does nothing. The platform, for its part, accepts messages only from the app's
 * registered origin and only from the app's iframe.
 */
(() => {
  const MESSAGE_TYPE = 'platform-canvas';
  const QUERY_PARAMETER = 'platform_origin';
  const STORAGE_KEY = 'platform-canvas:origin';
  const script = document.currentScript;

  /** `value` if it is exactly an http(s) origin ("https://platform.example"), else null. */
  function asOrigin(value) {
    if (typeof value !== 'string' || value === '') return null;
    try {
      const url = new URL(value);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
      return url.origin === value ? value : null;
    } catch {
      return null;
    }
  }

  function remembered() {
    try {
      return window.sessionStorage.getItem(STORAGE_KEY);
    } catch {
      return null; // storage refused (third-party storage blocked): the attribute still works
    }
  }

  function remember(origin) {
    try {
      window.sessionStorage.setItem(STORAGE_KEY, origin);
    } catch {
      // Nothing to do: the next page passes the origin again or goes without.
    }
  }

  const platformOrigin =
    asOrigin(script?.getAttribute('data-platform-origin')) ??
    asOrigin(new URLSearchParams(window.location.search).get(QUERY_PARAMETER)) ??
    asOrigin(remembered());
  const framed = window.parent !== window;
  if (platformOrigin) remember(platformOrigin);
  else if (framed) console.warn('canvas.js: the platform origin is unknown (platform_origin); nothing is sent.');

  function post(message) {
    if (!platformOrigin || !framed) return false;
    window.parent.postMessage({ type: MESSAGE_TYPE, ...message }, platformOrigin);
    return true;
  }

  /** The height of the page's content: the <html> element's box (keep it free of height: 100%). */
  function contentHeight() {
    return Math.ceil(document.documentElement.getBoundingClientRect().height);
  }

  /** The last height asked for on this page, and whether autoResize is following the content. */
  let lastHeight = null;
  let following = false;

  function resize(height) {
    const wanted = height === undefined ? contentHeight() : Number(height);
    if (!Number.isFinite(wanted) || wanted < 0) return false;
    lastHeight = Math.ceil(wanted);
    return post({ action: 'resize', height: lastHeight });
  }

  function reopen() {
    return post({ action: 'reopen' });
  }

  function navigate(path) {
    if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//')) return false;
    return post({ action: 'navigate', path });
  }

  /** The platform path a link leads to when it is a link to the platform's top page, else null. */
  function parentLinkPath(link) {
    const target = (link.getAttribute('target') ?? '').toLowerCase();
    if (target !== '_parent' && target !== '_top') return null;
    const href = link.getAttribute('href');
    if (!platformOrigin || !href) return null;
    let url;
    try {
      url = new URL(href, window.location.href);
    } catch {
      return null;
    }
    return url.origin === platformOrigin ? url.pathname + url.search + url.hash : null;
  }

  function autoResize() {
    following = true;
    let last = -1;
    let scheduled = false;
    const update = () => {
      scheduled = false;
      const height = contentHeight();
      if (height !== last) {
        last = height;
        resize(height);
      }
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      window.requestAnimationFrame(update);
    };
    update();
    if (typeof ResizeObserver !== 'function') {
      window.addEventListener('load', schedule);
      return () => {
        following = false;
        window.removeEventListener('load', schedule);
      };
    }
    const observer = new ResizeObserver(schedule);
    observer.observe(document.documentElement);
    return () => {
      following = false;
      observer.disconnect();
    };
  }

  // The platform asks for the height once the page has loaded in its frame (from its own origin
  // and the parent window only): the answer repeats what this page asked for, or the content's
  // height when autoResize follows it; a page that never asked says nothing.
  window.addEventListener('message', (event) => {
    if (!platformOrigin || event.origin !== platformOrigin || event.source !== window.parent) return;
    const message = event.data;
    if (
      typeof message === 'object' &&
      message !== null &&
      message.type === MESSAGE_TYPE &&
      message.action === 'measure'
    ) {
      if (following) resize();
      else if (lastHeight !== null) resize(lastHeight);
    }
  });

  // A link or button marked `data-platform-reopen` reopens the app through the platform; when the
  // platform cannot be told (no origin, not framed) the link works as an ordinary link.
  // A link to the platform with target="_parent" or "_top" is carried by the platform, which the
  // sandbox lets the link itself not do; other links are left to the browser.
  document.addEventListener('click', (event) => {
    const element = event.target instanceof Element ? event.target : null;
    const trigger = element?.closest('[data-platform-reopen]');
    if (trigger && reopen()) {
      event.preventDefault();
      return;
    }
    const link = element?.closest('a[href]');
    const path = link ? parentLinkPath(link) : null;
    if (path && navigate(path)) event.preventDefault();
  });

  window.PlatformCanvas = Object.freeze({ platformOrigin, resize, autoResize, reopen, navigate });
  if (script?.hasAttribute('data-auto-resize')) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => autoResize());
    else autoResize();
  }
})();
