// A separate process for crash tests: applies a zone diff of NAMES removals (crash000000.com …)
// for .com from 2026-03-12 to 2026-03-13, printing "applied N" after each chunk, so the test
// can SIGKILL it mid-apply. Env: DATA_DIR, optional DATABASE_URL and POSTGRES_SCHEMA, NAMES.
import { setTimeout as sleep } from 'node:timers/promises';
import { loadDomainIntelConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const config = loadDomainIntelConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', TRACKED_TLDS: 'com' });
const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
const total = Number(process.env.NAMES);

async function* removals() {
  for (let i = 0; i < total; i++) {
    // Paced, so the kill lands while chunks are still being written.
    if (i % 100 === 0) await sleep(1);
    yield { name: `crash${String(i).padStart(6, '0')}.com`, change: 'removed' as const };
  }
}

await ctx.lifecycle.applyZoneDiff(
  { tld: 'com', fromDate: '2026-03-12', toDate: '2026-03-13', changes: removals() },
  (n) => process.stdout.write(`applied ${n}\n`),
);
process.stdout.write('done\n');
await ctx.close();
