// A separate process for crash tests: takes the daily job's lease the way a real run does
// (runJob's runLeased, with its heartbeat), says so on stdout, and then hangs until killed.
// Env: DATA_DIR, optional DATABASE_URL and POSTGRES_SCHEMA, JOB_LEASE_SECONDS.
import { loadDomainIntelConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { runLeased } from '../../src/jobs/lease.ts';

const config = loadDomainIntelConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', TRACKED_TLDS: 'com' });
const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
await runLeased(ctx.jobLeases, 'pipeline:daily', config.JOB_LEASE_SECONDS * 1000, async () => {
  process.stdout.write(`holding ${ctx.jobLeases.owner}\n`);
  await new Promise(() => {}); // killed here, mid-job
});
