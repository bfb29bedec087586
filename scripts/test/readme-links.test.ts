import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { SERVICES, variablesOf } from '../env-docs.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
// `html: true` so that <img src> and <a href> in the documents are HTML tokens, as GitHub renders them.
const markdown = new MarkdownIt({ html: true });

type Token = ReturnType<MarkdownIt['parse']>[number];

interface Link {
  target: string;
  /** 1-based line of the Markdown file the link is written on. */
  line: number;
}

/** Attribute values of raw HTML: the parser hands HTML over as text, so its attributes are read here. */
function htmlTargets(html: string): string[] {
  return [...html.matchAll(/<(?:img|a)\b[^>]*?\s(?:src|href)\s*=\s*"([^"]*)"/gi)].map((match) => match[1]!);
}

/** Every link, image and HTML src/href of a Markdown file, with its line; code is not a link. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  let blockLine = 0;
  for (const token of markdown.parse(text, {})) {
    // Table cells' inline tokens carry no line map of their own: the row before them does.
    if (token.map) blockLine = token.map[0];
    if (token.type === 'html_block') {
      for (const target of htmlTargets(token.content)) links.push({ target, line: blockLine + 1 });
      continue;
    }
    if (token.type !== 'inline') continue;
    let line = blockLine;
    for (const child of token.children ?? []) {
      if (child.type === 'softbreak' || child.type === 'hardbreak') line++;
      else if (child.type === 'link_open') links.push({ target: child.attrGet('href') ?? '', line: line + 1 });
      else if (child.type === 'image') links.push({ target: child.attrGet('src') ?? '', line: line + 1 });
      else if (child.type === 'html_inline') {
        for (const target of htmlTargets(child.content)) links.push({ target, line: line + 1 });
      }
    }
  }
  return links;
}

/** The text GitHub slugs a heading from: what the reader sees, without Markdown's marks. */
function headingText(inline: Token): string {
  return (inline.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/** The anchors GitHub gives a Markdown file: one per heading (github-slugger), and explicit HTML ids and names. */
function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') anchors.add(slugger.slug(headingText(tokens[index + 1]!)));
    if (token.type === 'html_block' || token.type === 'inline') {
      const html = token.type === 'html_block' ? token.content : (token.children ?? []).map((c) => c.content).join('');
      for (const match of html.matchAll(/<a\b[^>]*?\s(?:id|name)\s*=\s*"([^"]+)"/gi)) anchors.add(match[1]!);
    }
  });
  return anchors;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Every Markdown file below a folder of the repository. */
function markdownBelow(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.posix.join(folder, name.split(path.sep).join('/')));
}

/** README.md, every Markdown file under docs/, bench/RESULTS.md, and every Markdown file they link to. */
function markdownFiles(): string[] {
  const found = new Set<string>();
  const queue = ['README.md', ...markdownBelow('docs'), 'bench/RESULTS.md'];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (found.has(file)) continue;
    found.add(file);
    for (const { target } of linksOf(read(file))) {
      if (isExternal(target) || target.startsWith('#')) continue;
      const linked = path.relative(root, path.resolve(root, path.dirname(file), decodeURI(target.split('#')[0]!)));
      if (linked.endsWith('.md') && !linked.startsWith('..') && existsSync(path.join(root, linked))) queue.push(linked);
    }
  }
  return [...found].sort();
}

/** What is wrong with one link of `file`, or null when it resolves. */
function problemOf(file: string, target: string): string | null {
  if (target === '') return 'empty link';
  const [pathPart, anchor] = target.split('#') as [string, string | undefined];
  const resolved =
    pathPart === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), decodeURI(pathPart));
  const inside = path.relative(root, resolved);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return 'outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor !== undefined && statSync(resolved).isFile() && resolved.endsWith('.md')) {
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) return 'no such heading';
  }
  return null;
}

describe('links in the README and the docs', () => {
  const files = markdownFiles();

  it('checks the README, every document under docs/, bench/RESULTS.md and the guides they lead to', () => {
    for (const file of [
      'README.md',
      'docs/README.md',
      'docs/ARCHITECTURE.md',
      'bench/RESULTS.md',
      'apps/sample-app/README.md',
      'packages/sdk/README.md',
    ]) {
      assert.ok(files.includes(file), `${file} is checked (found: ${files.join(', ')})`);
    }
  });

  it('every relative link resolves to a file inside the repository, every #anchor to a heading', () => {
    const problems: string[] = [];
    for (const file of files) {
      for (const { target, line } of linksOf(read(file))) {
        if (isExternal(target)) continue;
        const problem = problemOf(file, target);
        if (problem) problems.push(`${file}:${line}: ${target} (${problem})`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('docs/README.md links every document under docs/ (the notes waiting to be folded in aside)', () => {
    const index = new Set(
      linksOf(read('docs/README.md')).map(({ target }) => path.posix.join('docs', target.split('#')[0]!)),
    );
    const missing = markdownBelow('docs').filter(
      (file) => file !== 'docs/README.md' && !file.startsWith('docs/notes/') && !index.has(file),
    );
    assert.deepEqual(missing, []);
  });

  it('keeps the README a two-minute read (at most 150 lines)', () => {
    const lines = read('README.md').trimEnd().split('\n').length;
    assert.ok(lines <= 150, `README.md has ${lines} lines`);
  });

  it('finds the broken links it is meant to find, with their lines', () => {
    const sample = [
      '# Title',
      '',
      'A [good](#title) and a [bad](#nope) anchor, and',
      'a [missing file](docs/missing.md).',
      '',
      '| a | b |',
      '|---|---|',
      '| [cell](#also-bad) | `[code](#not-a-link)` |',
      '',
      '```',
      '[fenced](#not-a-link-either)',
      '```',
      '<img alt="x" src="docs/none.png">',
    ].join('\n');
    assert.deepEqual(
      linksOf(sample).map(({ target, line }) => `${line}:${target}`),
      ['3:#title', '3:#nope', '4:docs/missing.md', '8:#also-bad', '13:docs/none.png'],
    );
    assert.deepEqual(
      [...anchorsOf('# A `code` title\n## Repeat\n## Repeat\n## Ünïcode & co.')],
      ['a-code-title', 'repeat', 'repeat-1', 'ünïcode--co'],
    );
  });
});

describe('addresses in the README', () => {
  const readme = read('README.md');
  // The table at the top says where `npm start` puts each service: those are the documented ports.
  const documented = new Map(
    [...readme.matchAll(/^\| ([^|]+) \| http:\/\/127\.0\.0\.1:(\d+) \|/gm)].map((match) => [
      Number(match[2]),
      match[1]!.trim(),
    ]),
  );
  /** The development databases of the Development guide: PostgreSQL's and Redis's own default ports. */
  const DATABASE_PORTS = new Map([
    [5432, 'PostgreSQL'],
    [6379, 'Redis'],
  ]);

  it('documents each service’s default port in the table at the top', () => {
    assert.deepEqual(
      [...documented.values()],
      ['Domain Intelligence API', 'Social platform', 'Sample app', 'Upstream simulator'],
    );
    for (const service of SERVICES.slice(1)) {
      const port = variablesOf(service).find((variable) => variable.name === 'PORT')?.defaultValue;
      if (port === undefined) continue;
      assert.ok(documented.has(Number(port)), `${service.title} listens on ${port} by default`);
    }
  });

  it('uses only the documented ports in every example (localhost or 127.0.0.1)', () => {
    const wrong: string[] = [];
    for (const file of markdownFiles()) {
      const text = read(file);
      for (const match of text.matchAll(/\b(?:localhost|127\.0\.0\.1):(\d+)/g)) {
        const port = Number(match[1]);
        if (!documented.has(port) && !DATABASE_PORTS.has(port)) {
          const line = text.slice(0, match.index).split('\n').length;
          wrong.push(`${file}:${line}: ${match[0]}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
});
