import type { FastifyInstance } from 'fastify';
/**
 * Errors of the web pages are pages: a visitor who must log in is sent to the login form,
 * a refused form token asks to reload, anything the visitor sent wrong says what, and
 * anything else is a 500 page whose details go to the log only.
 */
export declare function installWebErrorPages(app: FastifyInstance): void;
