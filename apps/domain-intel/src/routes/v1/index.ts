import type { FastifyInstance } from 'fastify';
import { authentication } from '../../http/authentication.ts';
import quota from './quota.ts';

/** Every /v1 endpoint, one file each. All need a key unless a route says `auth: 'none'`. */
export async function v1Routes(app: FastifyInstance): Promise<void> {
  await app.register(authentication);
  await app.register(quota);
}
