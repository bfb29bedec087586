import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { databaseTargets } from '@repo/server-kit/testing';
import { createTestApp, type TestApp } from './helpers.ts';

const docsDir = fileURLToPath(new URL('../../../docs/', import.meta.url));
const guideFiles = readdirSync(`${docsDir}guides`, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.md'),
);

const hrefsOf = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1]!);
const srcsOf = (html: string) => [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((match) => match[1]!);
const idsOf = (html: string) => new Set([...html.matchAll(/ id="([^"]*)"/g)].map((match) => match[1]!));
const decode = (value: string) => value.replaceAll('&amp;', '&');
/** The rendered Markdown of a page (not the layout around it). */
const articleOf = (html: string) => /<article class="guide[^"]*">([\s\S]*)<\/article>/.exec(html)?.[1] ?? '';

/** The guides served from docs/: every guide, every link between served pages and every anchor resolves. */
describe('guides served at /docs/guides', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ target: databaseTargets()[0]! });
  });
  after(() => t?.close());

  it('the index links every guide under docs/guides/', async () => {
    const index = await t.app.inject('/docs/guides');
    assert.equal(index.statusCode, 200);
    assert.match(index.headers['content-type'] as string, /^text\/html/);
    const links = new Set(hrefsOf(index.body));
    for (const file of guideFiles) assert.ok(links.has(`/docs/guides/${file.slice(0, -3)}`), file);
  });

  it('every page it leads to answers, and every link and anchor on them resolves', async () => {
    const pages = new Map<string, string>();
    const queue = ['/docs/guides'];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (pages.has(url)) continue;
      const page = await t.app.inject(url);
      assert.equal(page.statusCode, 200, url);
      pages.set(url, page.body);
      for (const href of hrefsOf(articleOf(page.body)).map(decode)) {
        const [path = '', anchor] = href.split('#');
        if (/^\/docs\/(guides|library)(\/|$)/.test(path)) queue.push(path);
        if (anchor !== undefined) pages.set(`${path || url}#${anchor}`, '');
      }
      for (const src of srcsOf(articleOf(page.body))) {
        assert.ok(src.startsWith('/docs/screenshots/'), `${url}: image ${src}`);
        const image = await t.app.inject(src);
        assert.equal(image.statusCode, 200, `${url}: image ${src}`);
        assert.equal(image.headers['content-type'], 'image/png');
      }
    }
    const served = [...pages.keys()].filter((url) => !url.includes('#'));
    assert.ok(served.length > guideFiles.length, `${served.length} pages reached`);
    for (const target of [...pages.keys()].filter((url) => url.includes('#'))) {
      const [path = '', anchor = ''] = target.split('#');
      const html = pages.get(path) ?? (await t.app.inject(path)).body;
      assert.ok(idsOf(html).has(anchor), `${target}: no such heading`);
    }
  });

  it('a guide in the site layout, with its title, section and anchored headings', async () => {
    const page = await t.app.inject('/docs/guides/api/feed');
    assert.match(page.body, /<title>[^<]*· Domain Intelligence API<\/title>/);
    assert.match(page.body, /<a href="\/docs\/guides" aria-current="page">Guides<\/a>/);
    assert.match(page.body, /<h2 id="[a-z0-9-]+">[^<]+<a href="#[a-z0-9-]+" class="heading-anchor"/);
    assert.match(page.body, /href="\/assets\/guides\.css"/);
    assert.equal((await t.app.inject('/assets/guides.css')).statusCode, 200);
  });

  it('only files of docs/ are served, by their served names', async () => {
    for (const url of [
      '/docs/guides/nope',
      '/docs/guides/quick-start.md',
      '/docs/guides/..%2F..%2Fpackage.json',
      '/docs/library/../../package',
      '/docs/screenshots/../../package.json',
      '/docs/screenshots/nope.png',
    ]) {
      assert.equal((await t.app.inject(url)).statusCode, 404, url);
    }
  });
});
