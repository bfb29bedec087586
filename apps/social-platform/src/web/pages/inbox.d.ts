import type { FastifyInstance } from 'fastify';
/** The inbox: conversations, one conversation with its write form, and writing to anyone by user name. */
export declare function inboxPages(app: FastifyInstance): Promise<void>;
