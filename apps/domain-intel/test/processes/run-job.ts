// A separate process for lease tests: one run of a job through runJob, as the scheduler and the
// worker run it (its lease, heartbeat and nested deliveries lease included). It prints
// "running <job>" first, so the test can SIGKILL it while a webhook target holds its delivery.
// Args: the job name. Env: DATA_DIR, optional DATABASE_URL and POSTGRES_SCHEMA.
import { loadDomainIntelConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { type JobName, runJob } from '../../src/jobs/pipeline.ts';

const name = process.argv[2] as JobName;
const config = loadDomainIntelConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  RDAP_ALLOW_INSECURE: '1',
  TRACKED_TLDS: 'com',
  DELIVERY_TIMEOUT_MS: '120000',
});
const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
process.stdout.write(`running ${name}\n`);
await runJob(ctx, name);
process.stdout.write('done\n');
await ctx.close();
