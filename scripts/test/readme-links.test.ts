import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVICES, variablesOf } from '../env-docs.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The text a reader sees as prose: fenced code blocks and inline code are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of a Markdown file: `[text](target)`, `![alt](target)`, `<img src>`, `<a href>`. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const html = [...text.matchAll(/<(?:img|a)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  return [...inline, ...html];
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor of a heading: its text, lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** README.md, docs/*.md and every Markdown file they link to, followed to the end. */
function markdownFiles(): string[] {
  const start = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const found = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (found.has(file)) continue;
    found.add(file);
    for (const target of linksOf(read(file))) {
      if (isExternal(target) || target.startsWith('#')) continue;
      const linked = path.relative(root, path.resolve(root, path.dirname(file), target.split('#')[0]!));
      if (linked.endsWith('.md') && !linked.startsWith('..') && existsSync(path.join(root, linked))) queue.push(linked);
    }
  }
  return [...found].sort();
}

describe('links in the README and the documents it leads to', () => {
  const files = markdownFiles();

  it('follows the README to the other documents', () => {
    for (const file of ['README.md', 'docs/ARCHITECTURE.md', 'apps/sample-app/README.md', 'packages/sdk/README.md']) {
      assert.ok(files.includes(file), `${file} is checked (found: ${files.join(', ')})`);
    }
  });

  for (const file of files) {
    it(`${file}: every relative link resolves to a file inside the repository, every anchor to a heading`, () => {
      const problems: string[] = [];
      for (const target of linksOf(read(file))) {
        if (isExternal(target)) continue;
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const resolved = pathPart === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), pathPart);
        const inside = path.relative(root, resolved);
        if (inside.startsWith('..') || path.isAbsolute(inside)) {
          problems.push(`${target}: outside the repository`);
        } else if (!existsSync(resolved)) {
          problems.push(`${target}: no such file`);
        } else if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
          if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) problems.push(`${target}: no such heading`);
        }
      }
      assert.deepEqual(problems, []);
    });
  }
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
  /** The development databases of the Development section: PostgreSQL's and Redis's own default ports. */
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
    const files = markdownFiles();
    const wrong: string[] = [];
    for (const file of files) {
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
