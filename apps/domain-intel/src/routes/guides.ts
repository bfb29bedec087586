import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_PAGES_CSS, MarkdownPages, type RenderedPage } from '@repo/server-kit/markdown-pages';
import type { FastifyInstance } from 'fastify';

/**
 * The repository's docs/ as pages of the service, rendered from the same Markdown (markdown-it,
 * raw HTML off): the guides at /docs/guides/<path> with an index at /docs/guides, every other
 * document they link to (the index, design notes, configuration, running at scale, benchmarks) at
 * /docs/library/<path>, and their screenshots at /docs/screenshots/<path>. Links between them are
 * rewritten to these URLs. The folder is read through import.meta.url, so the CLI's bundle (which
 * keeps each source's own URL) reads the same one.
 */
const docsDir = fileURLToPath(new URL('../../../../docs/', import.meta.url));

/** Every file below docs/, by its path from docs/ in URL form. */
function filesBelowDocs(): string[] {
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/** Where a file of docs/ is served, or undefined (not Markdown or a PNG screenshot). */
export function guideUrlOf(docPath: string): string | undefined {
  if (docPath.startsWith('guides/') && docPath.endsWith('.md')) return `/docs/guides/${docPath.slice(7, -3)}`;
  if (docPath.startsWith('screenshots/') && docPath.endsWith('.png')) return `/docs/${docPath}`;
  if (docPath.endsWith('.md')) return `/docs/library/${docPath.slice(0, -3)}`;
  return undefined;
}

/** The guides in the order a newcomer reads them; any other after these, by name. */
const READING_ORDER = [
  'guides/quick-start.md',
  'guides/endpoints.md',
  'guides/keys-plans-quota.md',
  'guides/sdk.md',
  'guides/webhooks.md',
  'guides/delivery-and-watchlists.md',
  'guides/tlds.md',
  'guides/dashboard.md',
  'guides/billing.md',
  'guides/account-email.md',
  'guides/platform-apps.md',
  'guides/api/feed.md',
  'guides/api/availability-and-whois.md',
  'guides/api/suggestions.md',
  'guides/api/snapshots-and-export.md',
];
const readingOrder = (file: string) => {
  const place = READING_ORDER.indexOf(file);
  return place === -1 ? READING_ORDER.length : place;
};

interface GuideEntry {
  url: string;
  title: string;
}

export async function guidePages(app: FastifyInstance): Promise<void> {
  const files = filesBelowDocs();
  const served = new Map(files.flatMap((file) => (guideUrlOf(file) ? [[guideUrlOf(file)!, file] as const] : [])));
  const markdown = new MarkdownPages({
    docsDir,
    urlOf: (docPath) => (files.includes(docPath) ? guideUrlOf(docPath) : undefined),
  });
  const rendered = new Map<string, RenderedPage>();
  const pageOf = (file: string) => rendered.get(file) ?? rendered.set(file, markdown.render(file)).get(file)!;
  const entries = (prefix: string): GuideEntry[] =>
    files
      .filter((file) => file.startsWith(prefix) && file.endsWith('.md'))
      .sort((a, b) => readingOrder(a) - readingOrder(b))
      .map((file) => ({ url: guideUrlOf(file)!, title: markdown.titleOf(file) }));
  const index = {
    guides: entries('guides/').filter((entry) => !entry.url.startsWith('/docs/guides/api/')),
    api: entries('guides/api/'),
    design: entries('design/'),
    more: [
      'README.md',
      'ARCHITECTURE.md',
      'reference/configuration.md',
      'running-at-scale.md',
      'benchmarks.md',
      'development.md',
    ]
      .filter((file) => files.includes(file))
      .map((file) => ({ url: guideUrlOf(file)!, title: markdown.titleOf(file) })),
  };

  app.get('/assets/guides.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(MARKDOWN_PAGES_CSS),
  );

  app.get('/docs/guides', { schema: { hide: true } }, async (_request, reply) =>
    reply.view('guides', { title: 'Guides', section: 'guides', index }),
  );

  const servePage = async (url: string, reply: import('fastify').FastifyReply) => {
    const file = served.get(url);
    if (!file?.endsWith('.md')) return reply.callNotFound();
    const page = pageOf(file);
    return reply.view('guide', { title: page.title, section: 'guides', html: page.html, source: `docs/${file}` });
  };
  app.get<{ Params: { '*': string } }>('/docs/guides/*', { schema: { hide: true } }, async (request, reply) =>
    servePage(`/docs/guides/${request.params['*']}`, reply),
  );
  app.get<{ Params: { '*': string } }>('/docs/library/*', { schema: { hide: true } }, async (request, reply) =>
    servePage(`/docs/library/${request.params['*']}`, reply),
  );
  app.get<{ Params: { '*': string } }>('/docs/screenshots/*', { schema: { hide: true } }, async (request, reply) => {
    const file = served.get(`/docs/screenshots/${request.params['*']}`);
    if (!file) return reply.callNotFound();
    return reply
      .type('image/png')
      .header('Cache-Control', 'public, max-age=3600')
      .send(readFileSync(path.join(docsDir, file)));
  });
}
