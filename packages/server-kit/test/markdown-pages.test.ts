import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MarkdownPages } from '../src/markdown-pages.ts';
import { tempDir } from '../src/testing/databases.ts';

const docs = tempDir('markdown-pages');
after(() => docs.remove());
mkdirSync(path.join(docs.dir, 'guides', 'api'), { recursive: true });
mkdirSync(path.join(docs.dir, 'design'), { recursive: true });
writeFileSync(
  path.join(docs.dir, 'guides', 'start.md'),
  [
    '# Getting started',
    '',
    'Raw <script>alert(1)</script> and <b onclick="x()">bold</b> stay text.',
    '',
    '[bad](javascript:alert(1)) [feed](api/feed.md#paging) [design](../design/notes.md) [code](../../src/app.ts)',
    '[here](#the-same-name) [out](https://example.com/)',
    '',
    '![shot](../screenshots/one.png)',
    '',
    '## The same name',
    '',
    '## The same name',
    '',
    '### `GET /v1/check` and more!',
  ].join('\n'),
);

const pages = new MarkdownPages({
  docsDir: docs.dir,
  urlOf: (docPath) =>
    docPath.startsWith('guides/')
      ? `/g/${docPath.slice(7, -3)}`
      : docPath.startsWith('screenshots/')
        ? `/s/${docPath}`
        : undefined,
});

describe('Markdown guides rendered as pages', () => {
  const page = pages.render('guides/start.md');

  it('raw HTML is shown as text, never as markup; a javascript: link is not a link', () => {
    assert.ok(!page.html.includes('<script>'));
    assert.ok(!page.html.includes('<b onclick'));
    assert.ok(page.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!page.html.includes('href="javascript:'));
  });

  it('headings carry GitHub’s anchors (repeats numbered) and a link to themselves', () => {
    assert.equal(page.title, 'Getting started');
    assert.match(page.html, /<h1 id="getting-started">Getting started<\/h1>/);
    assert.match(page.html, /<h2 id="the-same-name">The same name<a href="#the-same-name" class="heading-anchor"/);
    assert.match(page.html, /<h2 id="the-same-name-1">/);
    assert.match(page.html, /<h3 id="get-v1check-and-more">/);
  });

  it('links between documents point at their served pages; one to a file not served keeps its text only', () => {
    assert.match(page.html, /<a href="\/g\/api\/feed#paging">feed<\/a>/);
    assert.match(page.html, /<a href="#the-same-name">here<\/a>/);
    assert.match(page.html, /<a href="https:\/\/example.com\/">out<\/a>/);
    assert.match(
      page.html,
      /<span class="repository-path" title="docs\/design\/notes.md in the repository">design<\/span>/,
    );
    assert.match(page.html, /<span class="repository-path" title="src\/app.ts in the repository">code<\/span>/);
    assert.match(page.html, /<img src="\/s\/screenshots\/one.png" alt="shot" loading="lazy">/);
  });
});
