/**
 * The `domain-intel` command: serve the API, run migrations, manage accounts and keys, and
 * (registered by their modules) zones, the pipeline and the worker.
 */
import { systemClock } from '@repo/server-kit';
import { packageVersion, runCli } from '@repo/server-kit/cli';
import { Command } from 'commander';
import { registerAccountCommands } from './cli/accounts-commands.ts';
import { registerDeliveryCommands } from './cli/delivery-commands.ts';
import { registerEnrichCommands } from './cli/enrich-commands.ts';
import { registerJobsCommands } from './cli/jobs-commands.ts';
import { registerTldsCommands } from './cli/tlds-commands.ts';
import { registerWatchCommands } from './cli/watch-commands.ts';
import { registerZonesCommands } from './cli/zones-commands.ts';
import { loadDomainIntelConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { createZonesContext, type ZonesContext } from './zones-context.ts';

const program = new Command('domain-intel')
  .version(packageVersion(new URL('../package.json', import.meta.url)))
  .description('Domain Intelligence API: availability, WHOIS, suggestions and the dropped-domain feed')
  .showHelpAfterError()
  .exitOverride();

let context: AppContext | undefined;
/** Commands share one lazily created context; `serve` builds its own inside the app. */
const getContext = async (): Promise<AppContext> => {
  // Loaded on first use: the full context imports every service, which the zones commands skip.
  const { createContext } = await import('./context.ts');
  context ??= await createContext(loadDomainIntelConfig());
  return context;
};

program
  .command('serve')
  .description('Run the HTTP API (PORT, HOST, DATA_DIR, DATABASE_URL, REDIS_URL)')
  .action(async () => {
    const config = loadDomainIntelConfig();
    // Loaded here only: the HTTP app (Fastify, routes, views) is most of the start-up time of the
    // other commands, a zone import among them.
    const { buildApp } = await import('./app.ts');
    const { listen } = await import('@repo/server-kit/server');
    const app = await buildApp(config);
    const address = await listen(app, config.HOST, config.PORT);
    app.log.info(
      `Domain Intelligence API on ${address} (docs: ${address}/docs, database: ${app.ctx.database.location})`,
    );
  });

program
  .command('migrate')
  .description('Bring the database schema up to date (also done at every start)')
  .action(async () => {
    const ctx = await getContext();
    process.stdout.write(`Database at ${ctx.database.location} is up to date.\n`);
  });

registerAccountCommands(program, getContext);
let zonesContext: ZonesContext | undefined;
registerZonesCommands(program, async () => {
  zonesContext ??= await createZonesContext(loadDomainIntelConfig());
  return zonesContext;
});
registerJobsCommands(program, getContext);
registerEnrichCommands(program, getContext);
registerDeliveryCommands(program, getContext);
registerWatchCommands(program, getContext);
registerTldsCommands(program, () => ({ config: loadDomainIntelConfig(), clock: systemClock }));

await runCli(program, {
  longRunning: ['serve'],
  cleanup: async () => {
    await zonesContext?.close();
    await context?.close();
  },
});
