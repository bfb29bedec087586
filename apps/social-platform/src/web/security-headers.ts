import type { FastifyReply } from 'fastify';

export interface PageSecurityOptions {
  /** The platform's public origin: media URLs are built from it even when a proxy serves them. */
  publicOrigin: string;
  /** The one origin this page may frame (the canvas page's app); none for every other page. */
  frameOrigin?: string | undefined;
  /** The page runs the platform's own scripts (the canvas page's /js/canvas-host.js); no other page runs any. */
  scripts?: boolean;
}

/**
 * The Content-Security-Policy of every web page. The pages run no script at all, except the
 * canvas page, which runs the platform's own files (never inline code); nothing may frame them
 * (`frame-ancestors 'none'`); and they may frame nothing, except the canvas page, which may
 * frame exactly its app's origin.
 */
export function pageContentSecurityPolicy({ publicOrigin, frameOrigin, scripts }: PageSecurityOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': scripts ? ["'self'"] : ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', publicOrigin],
    'form-action': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-src': frameOrigin ? [frameOrigin] : ["'none'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${[...new Set(values)].join(' ')}`)
    .join('; ');
}

/**
 * Sets the page headers. They replace whatever a global helmet configuration set for the
 * API (reply headers win over the raw ones helmet writes).
 */
export function applyPageSecurityHeaders(reply: FastifyReply, options: PageSecurityOptions): void {
  reply.header('Content-Security-Policy', pageContentSecurityPolicy(options));
  // For browsers that predate frame-ancestors.
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Content-Type-Options', 'nosniff');
}
