// A separate process for crash tests: one delivery round (match saved filters, send what is
// due), as the worker's job runs it. It prints "sending" when the round starts, so the test can
// SIGKILL it while a target holds the request. Env: DATA_DIR, optional DATABASE_URL and
// POSTGRES_SCHEMA.
import { loadDomainIntelConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const config = loadDomainIntelConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  RDAP_ALLOW_INSECURE: '1',
  DELIVERY_TIMEOUT_MS: '60000',
});
const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
process.stdout.write('sending\n');
await ctx.delivery.run();
process.stdout.write('done\n');
await ctx.close();
