/**
 * Application API overhead: `api.php?method=user.getUser` (token lookup by hash, per-token
 * rate limit, user and profile-picture queries, envelope) against a bare Fastify hello-world,
 * side by side in one run, on SQLite and (when DATABASE_URL is set) Postgres. Target >= 0.5.
 */
import { databaseTargets } from '@repo/server-kit/testing';
import { buildApp, loadPlatformConfig } from 'social-platform';
import { reportAgainstHelloWorld } from './lib/harness.ts';

async function measure(target: ReturnType<typeof databaseTargets>[number]): Promise<void> {
  const provisioned = await target.provision();
  const config = loadPlatformConfig({
    DATA_DIR: provisioned.dataDir,
    ...(provisioned.databaseUrl ? { DATABASE_URL: provisioned.databaseUrl } : {}),
    LOG_LEVEL: 'silent',
    // The benchmark measures the work of a call, not the limiter refusing it.
    API_RATE_LIMIT: '1000000000',
  });
  const app = await buildApp(config, { logger: false, postgresSchema: provisioned.postgresSchema });
  const ctx = app.platform;
  const user = await ctx.users.create({
    userName: 'bench',
    fullName: 'Bench Mark',
    email: 'bench@example.com',
    password: 'bench-password',
    countryIso: 'NL',
  });
  const application = await ctx.apps.create({ name: 'Bench', canvasUrl: 'https://bench.test/', ownerId: user.id });
  const { token } = await ctx.appAuth.exchangeKey(await ctx.appAuth.issueAppKey(application.id, user.id));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    await reportAgainstHelloWorld({
      name: `platform-api-getuser-${target.name}`,
      target: '>= 0.5',
      label: 'api',
      candidate: { url: `${url}/api.php?token=${token}&method=user.getUser` },
    });
  } finally {
    await app.close();
    await provisioned.cleanup();
  }
}

for (const target of databaseTargets()) {
  if (target.skip) console.log(`platform-api on ${target.name} skipped: ${target.skip}`);
  else await measure(target);
}
