/**
 * The social platform as benchmarks run it, in a process of its own (see server-process.ts),
 * on a database the benchmark provisioned, with one user, one application and an API token.
 */
import sharp from 'sharp';
import { buildApp, loadPlatformConfig } from 'social-platform';
import { type ServerProcess, type StartedServer, startServerProcess } from './server-process.ts';

/** JSON-only: it crosses into the server process. */
export interface PlatformServerOptions {
  dataDir: string;
  databaseUrl?: string;
  postgresSchema?: string;
}

export interface PlatformInfo {
  /** An Application API token of the benchmark's user (no profile picture). */
  token: string;
  /** A token of a second user of the same app, who has a profile picture. */
  pictureToken: string;
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
  const pictured = await ctx.users.create({
    userName: 'pictured',
    fullName: 'Pic Tured',
    email: 'pictured@example.com',
    password: 'bench-password',
    countryIso: 'NL',
  });
  await ctx.photos.setProfilePicture(pictured.id, await profilePicture());
  await ctx.apps.addTester(application.id, pictured.id);
  await ctx.grants.grant(application.id, pictured.id, ['basic_profile']);
  const { token: pictureToken } = await ctx.appAuth.exchangeKey(
    await ctx.appAuth.issueAppKey(application.id, pictured.id),
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, info: { token, pictureToken }, close: () => app.close() };
}

export function startPlatform(options: PlatformServerOptions): Promise<ServerProcess<PlatformInfo>> {
  return startServerProcess(new URL('./platform.ts', import.meta.url), 'platformServer', options, {
    cpuProfileDir: process.env.BENCH_CPU_PROF_DIR,
  });
}

/** A small photo-like JPEG: the picture's size does not matter to user.getUser, which only names its files. */
function profilePicture(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 300, channels: 3, background: '#4a7' } })
    .jpeg()
    .toBuffer();
}
