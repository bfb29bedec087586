import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp } from './helpers.ts';
import { signUp } from './web-client.ts';

const source = (name: string) => readFileSync(new URL(`../src/canvas/${name}`, import.meta.url), 'utf8');
const PLATFORM = 'https://platform.test';
const APP = 'https://app.test';

type Listener = (event: unknown) => void;

/** Just enough of a DOM element for the scripts' click handling: attributes and `closest`. */
class FakeElement {
  constructor(
    readonly attributes: Record<string, string>,
    readonly tag = 'a',
  ) {}
  getAttribute(name: string) {
    return this.attributes[name] ?? null;
  }
  closest(selector: string) {
    if (selector === 'a[href]') return this.tag === 'a' && 'href' in this.attributes ? this : null;
    const attribute = /^\[([a-z-]+)\]$/.exec(selector)?.[1];
    return attribute && attribute in this.attributes ? this : null;
  }
}

/** Values made in the scripts' own realm, as plain data (their prototypes are the realm's). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

/** Listeners by event type, and a way to fire them as the browser would. */
class Events {
  readonly listeners = new Map<string, Listener[]>();
  addEventListener = (type: string, listener: Listener) => {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  };
  fire(type: string, event: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

/** canvas.js in a page of the app inside the platform's iframe (just enough of a browser). */
function appPage(options: { attribute?: string | null; search?: string; storage?: Map<string, string> } = {}) {
  const posted: Array<{ message: Record<string, unknown>; targetOrigin: string }> = [];
  const warnings: string[] = [];
  const storage = options.storage ?? new Map<string, string>();
  const parent = {
    postMessage: (message: Record<string, unknown>, targetOrigin: string) => posted.push({ message, targetOrigin }),
  };
  const windowEvents = new Events();
  const documentEvents = new Events();
  let height = 812;
  const window = {
    parent,
    location: { search: options.search ?? '', href: `${APP}/canvas${options.search ?? ''}` },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
    },
    addEventListener: windowEvents.addEventListener,
    removeEventListener: () => {},
    requestAnimationFrame: (callback: () => void) => callback(),
  } as Record<string, unknown>;
  const script = {
    getAttribute: (name: string) => (name === 'data-platform-origin' ? (options.attribute ?? null) : null),
    hasAttribute: () => false,
  };
  const document = {
    currentScript: script,
    readyState: 'complete',
    documentElement: { getBoundingClientRect: () => ({ height }) },
    addEventListener: documentEvents.addEventListener,
  };
  runInNewContext(source('canvas.js'), {
    window,
    document,
    URL,
    URLSearchParams,
    Element: FakeElement,
    console: { warn: (text: string) => warnings.push(text) },
  });
  const api = window.PlatformCanvas as {
    platformOrigin: string | null;
    resize(height?: number): boolean;
    reopen(): boolean;
    navigate(path: unknown): boolean;
  };
  return {
    api,
    /** A click on `target`; returns whether the script prevented the browser's own handling. */
    click: (target: FakeElement) => {
      let prevented = false;
      documentEvents.fire('click', { target, preventDefault: () => (prevented = true) });
      return prevented;
    },
    posted,
    warnings,
    storage,
    setHeight: (value: number) => {
      height = value;
    },
    /** A message arriving at the app's window. */
    receive: (event: { origin: string; source: unknown; data: unknown }) => windowEvents.fire('message', event),
    parent,
  };
}

/** canvas-host.js on the platform's canvas page with the app's iframe. */
function canvasPage() {
  const windowEvents = new Events();
  const frameEvents = new Events();
  const toApp: Array<{ message: unknown; targetOrigin: string }> = [];
  const appWindow = { postMessage: (message: unknown, targetOrigin: string) => toApp.push({ message, targetOrigin }) };
  const attributes = new Map<string, string>([['data-app-origin', APP]]);
  const frame = {
    style: {} as Record<string, string>,
    contentWindow: appWindow,
    getAttribute: (name: string) => attributes.get(name) ?? null,
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    addEventListener: frameEvents.addEventListener,
  };
  const storage = new Map<string, string>();
  let reloads = 0;
  const assigned: string[] = [];
  const userActivation = { isActive: true };
  const window = {
    addEventListener: windowEvents.addEventListener,
    navigator: { userActivation },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
    },
    location: {
      origin: PLATFORM,
      reload: () => {
        reloads++;
      },
      assign: (url: string) => assigned.push(url),
    },
  };
  const document = {
    querySelector: (selector: string) => (selector === 'iframe[data-app-origin]' ? frame : null),
    // A click in the app's frame gives it the focus.
    activeElement: frame as unknown,
  };
  runInNewContext(source('canvas-host.js'), { window, document, Date, URL });
  return {
    frame,
    assigned,
    userActivation,
    document,
    appWindow,
    toApp,
    reloads: () => reloads,
    send: (event: { origin: string; source: unknown; data: unknown }) => windowEvents.fire('message', event),
    loadFrame: () => frameEvents.fire('load', {}),
  };
}

describe('/js/canvas.js (the app side)', () => {
  it('posts resize to the platform origin given on its tag, and only there', () => {
    const page = appPage({ attribute: PLATFORM });
    assert.equal(page.api.platformOrigin, PLATFORM);
    assert.equal(page.api.resize(640.2), true);
    page.setHeight(900);
    page.api.resize();
    assert.deepEqual(plain(page.posted), [
      { message: { type: 'platform-canvas', action: 'resize', height: 641 }, targetOrigin: PLATFORM },
      { message: { type: 'platform-canvas', action: 'resize', height: 900 }, targetOrigin: PLATFORM },
    ]);
    assert.equal(page.api.resize(Number.NaN), false);
    assert.equal(page.api.resize(-5), false);
    assert.equal(page.posted.length, 2);
  });

  it('reads platform_origin from the canvas URL, remembers it for the next pages of the frame', () => {
    const storage = new Map<string, string>();
    const first = appPage({ search: `?key=k&app_id=7&platform_origin=${encodeURIComponent(PLATFORM)}`, storage });
    assert.equal(first.api.platformOrigin, PLATFORM);
    const next = appPage({ storage });
    assert.equal(next.api.platformOrigin, PLATFORM);
    next.api.reopen();
    assert.deepEqual(plain(next.posted), [
      { message: { type: 'platform-canvas', action: 'reopen' }, targetOrigin: PLATFORM },
    ]);
  });

  it('sends nothing at all without a well-formed platform origin (never to "*")', () => {
    for (const attribute of [
      null,
      '*',
      'https://platform.test/',
      'https://platform.test/apps',
      'javascript:alert(1)',
      'ftp://x.test',
    ]) {
      const page = appPage({ attribute });
      assert.equal(page.api.platformOrigin, null, String(attribute));
      assert.equal(page.api.resize(500), false);
      assert.equal(page.api.reopen(), false);
      assert.deepEqual(page.posted, []);
    }
    assert.match(appPage().warnings[0] ?? '', /platform origin is unknown/);
  });

  it('answers the platform’s measure with the height it asked for, and only from the platform’s window', () => {
    const page = appPage({ attribute: PLATFORM });
    const measure = { type: 'platform-canvas', action: 'measure' };
    page.receive({ origin: PLATFORM, source: page.parent, data: measure });
    assert.equal(page.posted.length, 0, 'a page that never asked says nothing');
    page.api.resize(700);
    page.receive({ origin: 'https://evil.test', source: page.parent, data: measure });
    page.receive({ origin: PLATFORM, source: {}, data: measure });
    page.receive({ origin: PLATFORM, source: page.parent, data: 'measure' });
    assert.equal(page.posted.length, 1);
    page.receive({ origin: PLATFORM, source: page.parent, data: measure });
    assert.deepEqual(plain(page.posted[1]), {
      message: { type: 'platform-canvas', action: 'resize', height: 700 },
      targetOrigin: PLATFORM,
    });
  });
});

describe('/js/canvas.js carrying target="_parent" links (phpFox apps)', () => {
  const withOrigin = () => appPage({ attribute: PLATFORM });

  it('carries a click on a link to the platform with target _parent or _top as navigate, path only', () => {
    const page = withOrigin();
    assert.equal(page.click(new FakeElement({ href: `${PLATFORM}/u/ann?tab=photos#top`, target: '_parent' })), true);
    assert.equal(page.click(new FakeElement({ href: `${PLATFORM}/friends`, target: '_TOP' })), true);
    assert.deepEqual(plain(page.posted), [
      {
        message: { type: 'platform-canvas', action: 'navigate', path: '/u/ann?tab=photos#top' },
        targetOrigin: PLATFORM,
      },
      { message: { type: 'platform-canvas', action: 'navigate', path: '/friends' }, targetOrigin: PLATFORM },
    ]);
  });

  it('leaves other links to the browser: another origin, no target, the app’s own pages', () => {
    const page = withOrigin();
    assert.equal(page.click(new FakeElement({ href: 'https://elsewhere.test/u/ann', target: '_parent' })), false);
    assert.equal(page.click(new FakeElement({ href: `${PLATFORM}/u/ann` })), false);
    assert.equal(page.click(new FakeElement({ href: '/next-page', target: '_parent' })), false, 'the app’s origin');
    assert.equal(page.click(new FakeElement({ href: `${PLATFORM}/u/ann`, target: '_blank' })), false);
    assert.deepEqual(page.posted, []);
    assert.equal(
      appPage({ attribute: null }).click(new FakeElement({ href: `${PLATFORM}/u/ann`, target: '_parent' })),
      false,
    );
  });

  it('navigate() takes platform paths only', () => {
    const page = withOrigin();
    assert.equal(page.api.navigate('/u/ann'), true);
    for (const bad of ['//evil.test/', 'https://evil.test/', 'u/ann', 42]) assert.equal(page.api.navigate(bad), false);
    assert.equal(page.posted.length, 1);
  });
});

describe('/js/canvas-host.js (the canvas page)', () => {
  const resize = (height: unknown) => ({ type: 'platform-canvas', action: 'resize', height });

  it('resizes the iframe when its app asks, within bounds', () => {
    const page = canvasPage();
    page.send({ origin: APP, source: page.appWindow, data: resize(640) });
    assert.equal(page.frame.style.height, '640px');
    page.send({ origin: APP, source: page.appWindow, data: resize(10) });
    assert.equal(page.frame.style.height, '150px');
    page.send({ origin: APP, source: page.appWindow, data: resize(1e9) });
    assert.equal(page.frame.style.height, '20000px');
  });

  it('ignores messages from another origin, another window, or of another shape', () => {
    const page = canvasPage();
    page.send({ origin: 'https://evil.test', source: page.appWindow, data: resize(300) });
    page.send({ origin: APP, source: {}, data: resize(300) });
    page.send({ origin: APP, source: page.appWindow, data: 'resize 300' });
    page.send({ origin: APP, source: page.appWindow, data: resize('300') });
    page.send({ origin: APP, source: page.appWindow, data: resize(Number.POSITIVE_INFINITY) });
    page.send({ origin: APP, source: page.appWindow, data: { type: 'other', action: 'resize', height: 300 } });
    assert.equal(page.frame.style.height, undefined);
    page.send({
      origin: 'https://evil.test',
      source: page.appWindow,
      data: { type: 'platform-canvas', action: 'reopen' },
    });
    assert.equal(page.reloads(), 0);
  });

  it('asks each loaded page of the app for its height, posting to the app’s origin only', () => {
    const page = canvasPage();
    page.loadFrame();
    assert.deepEqual(plain(page.toApp), [
      { message: { type: 'platform-canvas', action: 'measure' }, targetOrigin: APP },
    ]);
  });

  it('opens a platform path in the top page on navigate, during the user’s click only', () => {
    const page = canvasPage();
    const navigate = (path: unknown) => ({ type: 'platform-canvas', action: 'navigate', path });
    page.send({ origin: APP, source: page.appWindow, data: navigate('/u/ann?tab=photos#top') });
    assert.deepEqual(page.assigned, ['/u/ann?tab=photos#top']);
    page.userActivation.isActive = false;
    page.send({ origin: APP, source: page.appWindow, data: navigate('/friends') });
    assert.equal(page.assigned.length, 1, 'no click, no navigation');
    page.userActivation.isActive = true;
    page.document.activeElement = {};
    page.send({ origin: APP, source: page.appWindow, data: navigate('/friends') });
    assert.equal(page.assigned.length, 1, 'a click on the canvas page itself, not in the app, is not enough');
  });

  it('never leaves the site on navigate, whatever the path, and listens to the app’s frame only', () => {
    const page = canvasPage();
    const navigate = (path: unknown) => ({ type: 'platform-canvas', action: 'navigate', path });
    for (const path of [
      '//evil.test/',
      '/\\evil.test',
      '/\\\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      '/\t/evil.test',
      '\t//evil.test',
      'u/ann',
      42,
      null,
    ]) {
      page.send({ origin: APP, source: page.appWindow, data: navigate(path) });
    }
    page.send({ origin: 'https://evil.test', source: page.appWindow, data: navigate('/u/ann') });
    page.send({ origin: APP, source: {}, data: navigate('/u/ann') });
    assert.deepEqual(page.assigned, []);
    page.send({ origin: APP, source: page.appWindow, data: navigate('/%2F%2Fevil.test') });
    assert.deepEqual(page.assigned, ['/%2F%2Fevil.test'], 'an encoded slash stays a path of this site');
  });

  it('reopens the app by reloading the page, but not in a loop', () => {
    const page = canvasPage();
    const reopen = { type: 'platform-canvas', action: 'reopen' };
    page.send({ origin: APP, source: page.appWindow, data: reopen });
    page.send({ origin: APP, source: page.appWindow, data: reopen });
    assert.equal(page.reloads(), 1);
  });
});

for (const target of databaseTargets().slice(0, 1)) {
  describe('the canvas page and the scripts it serves', () => {
    it('serves /js/canvas.js to any origin, and the canvas page runs only its own script', async () => {
      const t = await createTestApp({ target });
      try {
        const script = await t.app.inject('/js/canvas.js');
        assert.equal(script.statusCode, 200);
        assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
        assert.equal(script.headers['cross-origin-resource-policy'], 'cross-origin');
        assert.match(script.body, /PlatformCanvas/);
        assert.equal((await t.app.inject('/js/canvas-host.js')).statusCode, 200);

        const ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
        await t.tokenFor((await t.ctx.users.findByUserName('ada'))!.id); // the test app, allowed by Ada
        const [application] = (await t.ctx.apps.list({ page: 1, perPage: 1 })).items;
        const canvas = await ada.get(`/apps/${application!.id}`);
        assert.equal(canvas.statusCode, 200);
        const src = new URL(/<iframe[^>]*src="([^"]+)"/.exec(canvas.body)![1]!.replaceAll('&amp;', '&'));
        assert.equal(src.searchParams.get('platform_origin'), 'http://localhost', 'the origin the page is shown on');
        assert.match(canvas.body, /data-app-origin="https:\/\/app\.test"/);
        assert.match(canvas.body, /<script src="\/js\/canvas-host\.js"><\/script>/);
        const csp = String(canvas.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'/);
        assert.match(csp, /frame-src https:\/\/app\.test/);
        assert.match(String((await ada.get('/')).headers['content-security-policy']), /script-src 'none'/);
      } finally {
        await t.close();
      }
    });
  });
}
