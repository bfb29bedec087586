// A separate API process for the feed index snapshot tests: it opens the app's context on the test's
// database with FEED_INDEX_DIR shared with other such processes, asks for feed pages until its index
// answers (built here, or mapped from the snapshot another process wrote), then prints
// "READY <the feed_index_ready log fields> <the page's total>" and stays (mapping the snapshot) until
// its stdin closes. Env: DATA_DIR, FEED_INDEX_DIR, optional DATABASE_URL and POSTGRES_SCHEMA.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseFeedFilters } from '@repo/feed-index';
import { loadDomainIntelConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const config = loadDomainIntelConfig({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  FEED_INDEX: 'memory',
  FEED_INDEX_CHECK_SECONDS: '0',
});
const events: Array<Record<string, unknown>> = [];
const ctx = await createContext(config, {
  postgresSchema: process.env.POSTGRES_SCHEMA,
  log: {
    info: (fields) => events.push(fields as Record<string, unknown>),
    warn: (fields) => events.push(fields as Record<string, unknown>),
  },
});
const every = parseFeedFilters({ status: 'any' }, []);
let ready: Record<string, unknown> | undefined;
let total = 0;
while (!ready) {
  ({ total } = await ctx.feed.list(every, { sort: 'da', limit: 10, offset: 0 }));
  ready = events.find((event) => event.event === 'feed_index_ready');
  await sleep(20);
}
process.stdout.write(`READY ${JSON.stringify({ ...ready, total })}\n`);
process.stdin.resume();
await new Promise((resolve) => process.stdin.once('end', resolve));
await ctx.close();
