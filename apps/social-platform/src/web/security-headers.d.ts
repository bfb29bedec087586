import type { FastifyReply } from 'fastify';
export interface PageSecurityOptions {
  /** The platform's public origin: media URLs are built from it even when a proxy serves them. */
  publicOrigin: string;
  /** The one origin this page may frame (the canvas page's app); none for every other page. */
  frameOrigin?: string | undefined;
}
/**
 * The Content-Security-Policy of every web page. The pages run no script at all; nothing
 * but the platform's own pages may frame them (`frame-ancestors 'none'`); and they may
 * frame nothing, except the canvas page, which may frame exactly its app's origin.
 */
export declare function pageContentSecurityPolicy({ publicOrigin, frameOrigin }: PageSecurityOptions): string;
/**
 * Sets the page headers. They replace whatever a global helmet configuration set for the
 * API (reply headers win over the raw ones helmet writes).
 */
export declare function applyPageSecurityHeaders(reply: FastifyReply, options: PageSecurityOptions): void;
