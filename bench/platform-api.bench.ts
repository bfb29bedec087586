/**
 * Application API overhead: `api.php?method=user.getUser` (token lookup by hash, per-token
 * rate limit, user and profile-picture queries, envelope, request logging as configured)
 * against a bare Fastify hello-world, each server in its own process, on SQLite and (when
 * DATABASE_URL is set) Postgres. Targets: >= 0.5 on SQLite, >= 0.4 on Postgres.
 *
 * Then the same call for a user with a profile picture against one without, on the same
 * server in the same run (`platform-api-getuser-picture-*`): the server's CPU per call with a
 * picture may be at most 1.3 times that without (cpu ratio >= 1 / 1.3 = 0.77).
 */
import { databaseTargets } from '@repo/server-kit/testing';
import { compareServers, reportAgainstHelloWorld, reportComparison } from './lib/harness.ts';
import { startPlatform } from './lib/platform.ts';

const TARGETS = { sqlite: '>= 0.5', postgres: '>= 0.4' };
const PICTURE_CPU_TARGET = '>= 0.77';

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
    const getUser = (token: string) => ({ server: platform, path: `/api.php?token=${token}&method=user.getUser` });
    reportComparison({
      name: `platform-api-getuser-picture-${target.name}`,
      target: PICTURE_CPU_TARGET,
      throughputTarget: undefined,
      label: 'picture',
      baselineLabel: 'no_picture',
      comparison: await compareServers(getUser(platform.info.token), getUser(platform.info.pictureToken), {
        postgres: target.name === 'postgres',
      }),
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
