import type { FastifyInstance } from 'fastify';
export declare function homeRoutes(app: FastifyInstance): Promise<void>;
