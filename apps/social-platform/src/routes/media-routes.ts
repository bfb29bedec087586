import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { isStorageKey } from '../media/storage.ts';

const YEAR_SECONDS = 365 * 86_400;

// A friends-only or private file asked for without a signature is answered like a missing one.
const notFound = () => appError('not_found', 'There is no such file.');

/**
 * Uploaded images. A public photo's file has a permanent, unguessable name and may be cached
 * by anyone for a year. A friends-only or private photo's file is served only through a
 * signed URL (`?expires=…&signature=…`, see media/signed-urls.ts) handed out to those allowed
 * to see it, and only to the browser that asked (`Cache-Control: private`) until it expires.
 * Without a signature such a file is answered as if it did not exist.
 */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const { mediaDir, photos, mediaSigner } = app.platform;
  await mkdir(mediaDir, { recursive: true });
  await app.register(fastifyStatic, { root: mediaDir, serve: false, dotfiles: 'deny', index: false });

  app.get<{ Params: { '*': string }; Querystring: { expires?: unknown; signature?: unknown } }>(
    '/media/*',
    { schema: { hide: true } },
    async (request, reply) => {
      const key = request.params['*'];
      const file = isStorageKey(key) ? await photos.fileByKey(key) : undefined;
      if (!file) throw notFound();
      let cacheControl = `public, max-age=${YEAR_SECONDS}, immutable`;
      if (file.visibility !== 'public') {
        const { expires, signature } = request.query;
        if (expires === undefined && signature === undefined) throw notFound();
        const check = mediaSigner.check(key, expires, signature);
        if (check === 'expired') {
          throw appError('media_link_expired', 'This link to a photo has expired. Reload the page for a new one.');
        }
        if (check === 'invalid') throw appError('media_link_invalid', 'This link to a photo is not valid.');
        cacheControl = `private, max-age=${mediaSigner.secondsLeft(expires as string)}`;
      }
      reply.header('Cache-Control', cacheControl);
      reply.header('X-Content-Type-Options', 'nosniff');
      // Apps on other origins show these images in their pages.
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
      reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
      reply.header('Referrer-Policy', 'no-referrer');
      reply.type(file.contentType);
      return reply.sendFile(key, { cacheControl: false });
    },
  );
}
