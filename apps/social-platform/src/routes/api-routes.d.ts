import type { FastifyInstance } from 'fastify';
import type { ApiCaller } from '../auth/app-auth-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The app and user behind an api.php call, once its token is checked. */
    apiCaller: ApiCaller | undefined;
  }
}
/** token.php and api.php: the Application API. */
export declare function apiRoutes(app: FastifyInstance): Promise<void>;
