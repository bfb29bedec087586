import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

/** The entry of the navigation bar a page marks as current, or undefined. */
function currentEntry(html: string): string | undefined {
  const bar = /<header class="topbar">[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';
  return /<a href="([^"]+)"[^>]*aria-current="page"/.exec(bar)?.[1];
}

describe('one layout on every page of the service', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
  });
  after(async () => t?.close());

  it('serves Pico CSS from node_modules, byte for byte, beside the product’s stylesheet', async () => {
    const pico = await t.app.inject('/assets/pico.min.css');
    assert.equal(pico.statusCode, 200);
    assert.match(String(pico.headers['content-type']), /^text\/css/);
    const shipped = readFileSync(createRequire(import.meta.url).resolve('@picocss/pico/css/pico.blue.min.css'));
    assert.ok(pico.rawPayload.equals(shipped), 'the package’s own file');
    assert.equal((await t.app.inject('/assets/site.css')).statusCode, 200);
    assert.equal((await t.app.inject('/assets/favicon.svg')).statusCode, 200);
  });

  for (const [path, current] of [
    ['/docs/errors', '/docs/errors'],
    ['/docs/events', '/docs/events'],
    ['/signup', '/signup'],
    ['/dashboard', '/dashboard'],
  ] as const) {
    it(`${path}: the foundation, the product’s stylesheet and the navigation bar with ${current} current`, async () => {
      const page = await t.app.inject(path);
      assert.equal(page.statusCode, 200);
      const pico = page.body.indexOf('href="/assets/pico.min.css"');
      const site = page.body.indexOf('href="/assets/site.css"');
      assert.ok(pico > 0 && site > pico, 'Pico first, the product’s layer on it');
      assert.match(page.body, /<nav class="container" aria-label="Main">/);
      for (const href of ['/docs', '/docs/guides', '/docs/errors', '/docs/events', '/dashboard']) {
        assert.match(page.body, new RegExp(`<li><a href="${href}"`), `the bar links ${href}`);
      }
      assert.equal(currentEntry(page.body), current);
    });
  }

  it('the reference page draws the same entries in its bar', async () => {
    const script = (await t.app.inject('/docs/static/theme/product-nav.js')).body;
    for (const href of ['/docs', '/docs/guides', '/docs/errors', '/docs/events', '/dashboard', '/signup']) {
      assert.match(script, new RegExp(`'${href}'`), `product-nav.js links ${href}`);
    }
  });
});
