/**
 * The social platform as benchmarks run it, in a process of its own (see server-process.ts),
 * on a database the benchmark provisioned, with one user, one application and an API token.
 */
import { buildApp, loadPlatformConfig } from 'social-platform';
import { type ServerProcess, type StartedServer, startServerProcess } from './server-process.ts';

/** JSON-only: it crosses into the server process. */
export interface PlatformServerOptions {
  dataDir: string;
  databaseUrl?: string;
  postgresSchema?: string;
}

export interface PlatformInfo {
  /** An Application API token of the benchmark's user. */
  token: string;
}

/** Runs in the server process. */
export async function platformServer(options: PlatformServerOptions): Promise<StartedServer<PlatformInfo>> {
  const config = loadPlatformConfig({
    // As deployed (docs/running-at-scale.md): templates cached, production defaults.
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    // The benchmark measures the work of a call, not the limiter refusing it.
    API_RATE_LIMIT: '1000000000',
  });
  const app = await buildApp(config, { postgresSchema: options.postgresSchema });
  const ctx = app.platform;
  const user = await ctx.users.create({
    userName: 'bench',
    fullName: 'Bench Mark',
    email: 'bench@example.com',
    password: 'bench-password',
    countryIso: 'NL',
  });
  const application = await ctx.apps.create({ name: 'Bench', canvasUrl: 'https://bench.test/', ownerId: user.id });
  await ctx.grants.grant(application.id, user.id, ['basic_profile']);
  const { token } = await ctx.appAuth.exchangeKey(await ctx.appAuth.issueAppKey(application.id, user.id));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, info: { token }, close: () => app.close() };
}

export function startPlatform(options: PlatformServerOptions): Promise<ServerProcess<PlatformInfo>> {
  return startServerProcess(new URL('./platform.ts', import.meta.url), 'platformServer', options, {
    cpuProfileDir: process.env.BENCH_CPU_PROF_DIR,
  });
}
