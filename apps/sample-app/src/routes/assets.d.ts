import type { FastifyInstance } from 'fastify';
export declare function assetRoutes(app: FastifyInstance): Promise<void>;
