import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
// The sample app is tested against the real platform, not a stand-in: its token.php, api.php and media.
import { PERMISSION_NAMES } from '../../social-platform/src/applications/permissions.ts';
import { buildApp, loadPlatformConfig } from '../../social-platform/src/index.ts';

export interface RunningPlatform {
  app: FastifyInstance;
  /** Where it listens, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

export interface StartPlatformOptions {
  /** More platform configuration (API_RATE_LIMIT …). */
  env?: Record<string, string>;
  /** The platform's clock, for tests that let tokens expire. */
  clock?: { now(): number };
}

/** A platform on a fresh SQLite file, listening on a free port of 127.0.0.1. */
export async function startPlatform(options: StartPlatformOptions = {}): Promise<RunningPlatform> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sample-app-platform-'));
  const app = await buildApp(
    loadPlatformConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://127.0.0.1:3100',
      ...options.env,
    }),
    { logger: false, ...(options.clock ? { clock: options.clock } : {}) },
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** Ada (the user who opens the app), her friend Bob who wrote her, and the app. */
export async function seedPlatform(platform: RunningPlatform, canvasUrl = 'http://127.0.0.1:3200/') {
  const ctx = platform.app.platform;
  const n = ++counter;
  const person = (userName: string, fullName: string) =>
    ctx.users.create({
      userName: `${userName}-${n}`,
      fullName,
      email: `${userName}${n}@example.com`,
      password: 'long enough pass',
    });
  const ada = await person('ada', 'Ada Lovelace');
  const bob = await person('bob', 'Bob Builder');
  await ctx.friends.befriend(ada.id, bob.id);
  await ctx.mail.send(bob.id, ada.id, 'Try the sample app!');
  await ctx.notifications.add(ada.id, { message: 'Bob Builder sent you a message.', link: '/mail' });
  // Published with every permission, and Ada has allowed it, as a user who opened it from the directory would have.
  const application = await ctx.apps.create({
    name: 'Sample app',
    canvasUrl,
    ownerId: bob.id,
    permissions: PERMISSION_NAMES,
    published: true,
  });
  await ctx.grants.grant(application.id, ada.id, PERMISSION_NAMES);
  return { ada, bob, application, issueKey: () => ctx.appAuth.issueAppKey(application.id, ada.id) };
}
