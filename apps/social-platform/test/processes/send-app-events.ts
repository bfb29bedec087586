// A separate process for the killed-sender test: one round of app callbacks (claims and sends every
// due event), as `serve`'s round runs it. It prints "sending" first, so the test can SIGKILL it
// while the app's callback endpoint holds the request. Env: DATA_DIR, optional DATABASE_URL and
// POSTGRES_SCHEMA (the test's database).
import { loadPlatformConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const config = loadPlatformConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'https://social.test',
  CALLBACK_ALLOW_INSECURE: '1',
});
const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
process.stdout.write('sending\n');
await ctx.appEvents.deliverDue();
process.stdout.write('done\n');
await ctx.close();
