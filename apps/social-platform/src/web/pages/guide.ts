import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_PAGES_CSS, MarkdownPages } from '@repo/server-kit/markdown-pages';
import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render.ts';

/**
 * The platform's app guide (docs/guides/platform-apps.md) as a page of the platform, rendered from
 * the same Markdown (markdown-it, raw HTML off) at /docs/guides/apps, with the screenshots it shows.
 * A link to a document the platform does not serve keeps its text only.
 */
const docsDir = fileURLToPath(new URL('../../../../../docs/', import.meta.url));
const GUIDE = 'guides/platform-apps.md';
export const APP_GUIDE_URL = '/docs/guides/apps';

function urlOf(docPath: string): string | undefined {
  if (docPath === GUIDE) return APP_GUIDE_URL;
  if (/^screenshots\/platform\/[\w-]+\.png$/.test(docPath)) return `/docs/${docPath}`;
  return undefined;
}

export async function appGuidePage(app: FastifyInstance): Promise<void> {
  const page = new MarkdownPages({ docsDir, urlOf }).render(GUIDE);

  app.get('/docs/guides', async (_request, reply) => reply.redirect(APP_GUIDE_URL));
  app.get('/assets/guide.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(MARKDOWN_PAGES_CSS),
  );
  app.get(APP_GUIDE_URL, async (request, reply) =>
    renderPage(request, reply, 'guide.eta', { title: page.title, html: page.html, source: `docs/${GUIDE}` }),
  );
  app.get<{ Params: { name: string } }>('/docs/screenshots/platform/:name', async (request, reply) => {
    const docPath = `screenshots/platform/${request.params.name}`;
    if (!urlOf(docPath)) return reply.callNotFound();
    let image: Buffer;
    try {
      image = readFileSync(new URL(docPath, `file://${docsDir}`));
    } catch {
      return reply.callNotFound();
    }
    return reply.type('image/png').header('Cache-Control', 'public, max-age=3600').send(image);
  });
}
