import { readFileSync } from 'node:fs';
import swaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const asset = (name: string) => readFileSync(new URL(`../assets/api-reference/${name}`, import.meta.url));

/** The product's name as the reference page shows it (tab title and logo). */
export const API_REFERENCE_TITLE = 'Domain Intelligence API · Reference';

/**
 * The reference page at /docs: swagger-ui rendering /openapi.json, in the product's look (its
 * name in the title and the logo, the colours and type of the site, links to the error codes,
 * dashboard and sign-up) instead of the stock green Swagger bar.
 */
export function apiReferenceOptions(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0 },
    logo: { type: 'image/svg+xml', content: asset('logo.svg'), href: '/docs', target: '_self' },
    theme: {
      title: API_REFERENCE_TITLE,
      css: [{ filename: 'theme.css', content: asset('theme.css').toString('utf8') }],
      js: [{ filename: 'product-nav.js', content: asset('product-nav.js').toString('utf8') }],
      favicon: [
        { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: asset('favicon.svg') },
      ],
    },
  };
}

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

/**
 * The reference page, registered in the HTML scope. swagger-ui's page has no viewport meta, so a
 * phone would lay it out 980 px wide and shrink it: the tag is added to its HTML on the way out.
 */
export async function apiReference(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (_request, reply, payload, done) => {
    const html = typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html');
    done(
      null,
      html && !payload.includes('name="viewport"') ? payload.replace(/<head>/i, `<head>\n${VIEWPORT}`) : payload,
    );
  });
  await app.register(swaggerUi, apiReferenceOptions());
}
