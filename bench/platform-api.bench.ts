/**
 * Application API overhead: `api.php?method=user.getUser` (token lookup by hash, per-token
 * rate limit, user and profile-picture queries, envelope, request logging as configured)
 * against a bare Fastify hello-world, each server in its own process, on SQLite and (when
 * DATABASE_URL is set) Postgres. Targets: >= 0.5 on SQLite, >= 0.4 on Postgres.
 */
import { databaseTargets } from '@repo/server-kit/testing';
import { reportAgainstHelloWorld } from './lib/harness.ts';
import { startPlatform } from './lib/platform.ts';

const TARGETS = { sqlite: '>= 0.5', postgres: '>= 0.4' };

async function measure(target: ReturnType<typeof databaseTargets>[number]): Promise<void> {
  const provisioned = await target.provision();
  const platform = await startPlatform({
    dataDir: provisioned.dataDir,
    databaseUrl: provisioned.databaseUrl,
    postgresSchema: provisioned.postgresSchema,
  });
  try {
    await reportAgainstHelloWorld({
      name: `platform-api-getuser-${target.name}`,
      target: TARGETS[target.name],
      label: 'api',
      candidate: { server: platform, path: `/api.php?token=${platform.info.token}&method=user.getUser` },
      compare: { postgres: target.name === 'postgres' },
    });
  } finally {
    await platform.close();
    await provisioned.cleanup();
  }
}

for (const target of databaseTargets()) {
  if (target.skip) console.log(`platform-api on ${target.name} skipped: ${target.skip}`);
  else await measure(target);
}
