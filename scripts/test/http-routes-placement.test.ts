import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
/**
 * Each service's folders of HTTP routes. The platform's pages are routes too, kept in web/pages/
 * (one file per page, beside the templates and forms they use); moving them to routes/web/ is
 * mechanical and waits until the pages being edited now have landed.
 */
const SERVICES: readonly { src: string; routeFolders: readonly string[] }[] = [
  { src: 'apps/domain-intel/src', routeFolders: ['routes/'] },
  { src: 'apps/social-platform/src', routeFolders: ['routes/', 'web/pages/'] },
];

/**
 * A route registration: `x.get('/…'`, `x.post(\`/…\``, `x.route({`… A Map's `get('key')` never
 * starts its key with "/" or "*"; a Fastify path always does.
 */
const REGISTRATION = /\.(?:get|post|put|patch|delete|head|options|all)(?:<[^>]*>)?\(\s*['"`][/*]|\.route\(\s*\{/g;
/** `request.body as { … }`: a hand-written type instead of the route's schema. */
const REQUEST_CAST = /\brequest\.(?:body|query|params)\)?\s+as\s+\{/g;

function sourcesOf(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file).split(path.sep).join('/'));
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

function matchesIn(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    return [...text.matchAll(pattern)].map((match) => `${file}:${lineOf(text, match.index)}: ${match[0]}`);
  });
}

// Where a service answers HTTP is one folder: a reader looking for "what answers GET /x" reads
// routes/, and a service folder holds rules, never a request.
test('every HTTP route of both services is registered in its route folders', () => {
  for (const { src, routeFolders } of SERVICES) {
    const inRouteFolder = (file: string) => routeFolders.some((folder) => file.startsWith(`${src}/${folder}`));
    const files = sourcesOf(src);
    assert.deepEqual(
      matchesIn(
        files.filter((file) => !inRouteFolder(file)),
        REGISTRATION,
      ),
      [],
      `${src}: routes registered outside ${routeFolders.join(' and ')}`,
    );
    assert.ok(matchesIn(files.filter(inRouteFolder), REGISTRATION).length > 10, `${src}: the check finds routes`);
  }
});

test('Domain Intelligence routes read bodies, queries and params as their schemas type them, never by a cast', () => {
  assert.deepEqual(matchesIn(sourcesOf('apps/domain-intel/src/routes'), REQUEST_CAST), []);
});

test('the route pattern finds the shapes routes are written in, and not map look-ups', () => {
  const found = (text: string) => [...text.matchAll(REGISTRATION)].length;
  assert.equal(found("app.get('/x', handler)"), 1);
  assert.equal(found('app.post(`/dashboard/assets/` + name, handler)'), 1);
  assert.equal(found("app.get<{ Params: { '*': string } }>('/docs/*', handler)"), 1);
  assert.equal(found("html.route({ method: 'GET', url: '/x', handler })"), 1);
  assert.equal(found("app.options('*', handler)"), 1);
  assert.equal(found("served.get('guides/x.md'); cache.get(key); headers.get('x-id')"), 0);
});
