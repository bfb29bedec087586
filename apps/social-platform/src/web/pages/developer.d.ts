import type { FastifyInstance } from 'fastify';
/** The developer area: register an app (name and canvas URL → APP ID) and list one's own. */
export declare function developerPages(app: FastifyInstance): Promise<void>;
