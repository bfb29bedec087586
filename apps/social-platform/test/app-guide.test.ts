import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

const articleOf = (html: string) => /<article class="guide">([\s\S]*)<\/article>/.exec(html)?.[1] ?? '';

/** The app guide (docs/guides/platform-apps.md) as a page of the platform. */
describe('the app guide served at /docs/guides/apps', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
  });
  after(() => t?.close());

  it('renders the guide in the platform’s layout; /docs/guides leads to it', async () => {
    const index = await t.app.inject('/docs/guides');
    assert.equal(index.statusCode, 302);
    assert.equal(index.headers.location, '/docs/guides/apps');
    const page = await t.app.inject('/docs/guides/apps');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>[^<]+· Social Platform<\/title>/);
    assert.match(page.body, /href="\/assets\/platform\.css"/);
    assert.match(page.body, /<h1 id="[a-z0-9-]+">/);
    assert.equal((await t.app.inject('/assets/guide.css')).statusCode, 200);
  });

  it('every anchor resolves on the page, every image is served, no link leads to a page the platform lacks', async () => {
    const html = articleOf((await t.app.inject('/docs/guides/apps')).body);
    const ids = new Set([...html.matchAll(/ id="([^"]*)"/g)].map((match) => match[1]!));
    const hrefs = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
    assert.ok(hrefs.length > 10);
    for (const href of hrefs) {
      if (href.startsWith('#')) assert.ok(ids.has(href.slice(1)), href);
      else assert.ok(/^https?:\/\//.test(href) || href.startsWith('/docs/guides/apps'), href);
    }
    for (const [, src] of html.matchAll(/<img [^>]*src="([^"]*)"/g)) {
      const image = await t.app.inject(src!);
      assert.equal(image.statusCode, 200, src);
      assert.equal(image.headers['content-type'], 'image/png');
    }
    assert.equal((await t.app.inject('/docs/screenshots/platform/..%2F..%2Fpackage.json')).statusCode, 404);
  });
});
