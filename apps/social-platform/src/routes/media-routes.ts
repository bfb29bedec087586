import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Uploaded images. Names are unguessable and never reused, so browsers may cache them for good. */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  await mkdir(app.platform.mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: app.platform.mediaDir,
    prefix: '/media/',
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: '365d',
    setHeaders(reply) {
      reply.setHeader('X-Content-Type-Options', 'nosniff');
      // Apps on other origins show these images in their pages.
      reply.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      reply.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    },
  });
}
