import type { FastifyInstance } from 'fastify';
/** Sign-up, log-in and log-out. Passwords are never echoed back into a form. */
export declare function authPages(app: FastifyInstance): Promise<void>;
