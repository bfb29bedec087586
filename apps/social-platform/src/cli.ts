/** The `social-platform` command: serve the platform, run migrations, manage its data. */
import { listen, packageVersion, runCli } from '@repo/server-kit';
import { Command } from 'commander';
import { buildApp } from './app.ts';
import { CALLBACK_ROUND_MS } from './callbacks/app-events.ts';
import { registerDataCommands } from './cli/data-commands.ts';
import { loadPlatformConfig } from './config.ts';
import { type AppContext, createContext } from './context.ts';

const HOUR_MS = 3_600_000;

const program = new Command('social-platform')
  .version(packageVersion(new URL('../package.json', import.meta.url)))
  .description('The social platform and its Application API (token.php, api.php)')
  .option('--json', 'print results as one JSON object')
  .showHelpAfterError()
  .exitOverride();

let context: AppContext | undefined;
/** Commands share one lazily created context; `serve` builds its own inside the app. */
const getContext = async (): Promise<AppContext> => {
  context ??= await createContext(loadPlatformConfig());
  return context;
};

program
  .command('serve')
  .description('Run the platform (PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL; DEMO=1 seeds demo data)')
  .action(async () => {
    const config = loadPlatformConfig();
    const app = await buildApp(config);
    const ctx = app.platform;
    if (config.DEMO) {
      const { seedDemo } = await import('../demo/seed.ts');
      const demo = await seedDemo(ctx);
      app.log.info(`Demo data ready: sign in as ${demo.login.user_name} / ${demo.login.password}`);
    }
    // Used and expired keys and tokens are only kept a day, for replay detection and audits.
    const purge = setInterval(() => {
      ctx.appAuth.purgeExpired().catch((error) => app.log.warn({ err: error }, 'purging expired keys failed'));
      // Events to apps stay in the console's delivery log for 30 days once settled.
      ctx.appEvents.purgeOld().catch((error) => app.log.warn({ err: error }, 'purging old app events failed'));
    }, HOUR_MS);
    purge.unref();
    // Events are sent as they happen; this round sends the retries that fall due (and any another instance left).
    const callbacks = setInterval(() => ctx.appEvents.kick(), CALLBACK_ROUND_MS);
    callbacks.unref();
    app.addHook('onClose', async () => {
      clearInterval(purge);
      clearInterval(callbacks);
    });
    const address = await listen(app, config.HOST, config.PORT);
    app.log.info(
      `Social platform on ${address} (public URL ${config.PUBLIC_URL}, API reference ${address}/openapi.json, database ${ctx.database.location})`,
    );
  });

program
  .command('migrate')
  .description('Bring the database schema up to date (also done at every start)')
  .action(async () => {
    const ctx = await getContext();
    if (program.opts().json) process.stdout.write(`${JSON.stringify({ database: ctx.database.location })}\n`);
    else process.stdout.write(`Database at ${ctx.database.location} is up to date.\n`);
  });

registerDataCommands(program, getContext);

await runCli(program, { longRunning: ['serve'], cleanup: async () => context?.close() });
