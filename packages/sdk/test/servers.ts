import type { DatabaseTarget } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
// The services' Fastify decorations (app.ctx, app.platform) live in their app modules; this program sees them only through these.
import type {} from '../../../apps/domain-intel/src/app.ts';
import {
  createTestApp as createDomainIntel,
  type TestApp as DomainIntelTestApp,
} from '../../../apps/domain-intel/test/helpers.ts';
import type {} from '../../../apps/social-platform/src/app.ts';
import {
  createTestApp as createPlatform,
  type TestApp as PlatformTestApp,
} from '../../../apps/social-platform/test/helpers.ts';

/** Listens on 127.0.0.1 with an ephemeral port and returns the base URL. */
async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return `http://127.0.0.1:${address.port}`;
}

export interface RunningDomainIntel extends DomainIntelTestApp {
  baseUrl: string;
}

/** The real Domain Intelligence API, in this process, on a real socket. */
export async function startDomainIntel(
  target: DatabaseTarget,
  env: Record<string, string> = {},
): Promise<RunningDomainIntel> {
  const t = await createDomainIntel({ target, env });
  return Object.assign(t, { baseUrl: await listen(t.app) });
}

export interface RunningPlatform extends PlatformTestApp {
  baseUrl: string;
}

/** The real social platform, in this process, on a real socket. */
export async function startPlatform(
  target: DatabaseTarget,
  env: Record<string, string> = {},
): Promise<RunningPlatform> {
  const t = await createPlatform({ target, env });
  return Object.assign(t, { baseUrl: await listen(t.app) });
}
