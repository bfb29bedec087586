/**
 * GET /v1/domains over 1 M feed rows, on SQLite and (with DATABASE_URL) on Postgres: the
 * first page a client polls (`limit=1`, target >= 0.4), the default page, every filter at
 * once, and pages at offset 10,000, each against a bare Fastify hello-world measured in the
 * same run (API and baseline each in its own process, wrk in a third; ratio of requests/s and
 * of CPU per request, p95 alongside), and a keyed, counted no-op route of the same server
 * (`keyed-no-op`: what every /v1 call costs, so the rest is the feed page's). One scenario
 * runs with the `total` cache off, to show what counting costs. FEED_BENCH_ROWS overrides
 * the row count and FEED_BENCH_SCENARIOS (comma list of names) the scenarios run (quick runs).
 *
 * Target (none was given): at least 2 % of the hello-world's requests/s, i.e. a page of 100
 * enriched rows out of a million, with auth and quota, costs at most ~50 hello-worlds; the
 * uncached-total scenario is expected to miss it and shows what the `total` cache saves.
 */
import { type Dialect, utcDate } from '@repo/server-kit';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import type { Kysely } from 'kysely';
import { populateFeed } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { type DomainIntelInfo, startDomainIntel } from './lib/domain-intel.ts';
import { benchRounds, reportAgainstHelloWorld, type ServerProcess, startHelloWorld } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_BENCH_ROWS ?? 1_000_000);
const NOW = Date.now();
const DAY = 86_400_000;

const scenarios: Array<{ name: string; query: string; uncachedTotal?: boolean; target?: string }> = [
  // The feed's first page as a client polls it: a real counted call, logging as in production.
  { name: 'first-page', query: '?limit=1', target: '>= 0.4' },
  { name: 'default', query: '' },
  {
    name: 'all-filters',
    query: `?tld=com,net&min_years=5&min_da=20&min_tf=10&dropped_after=${utcDate(NOW - 45 * DAY)}&dropped_before=${new Date(NOW).toISOString()}&status=dropped&sort=da&limit=100`,
  },
  { name: 'offset-10000', query: '?limit=100&offset=10000' },
  {
    name: 'all-filters-offset-10000',
    query: `?tld=com,net&min_years=2&min_da=10&min_tf=5&dropped_after=${utcDate(NOW - 59 * DAY)}&sort=dropped_at&limit=100&offset=10000`,
  },
  {
    name: 'all-filters-offset-10000-uncached-total',
    query: `?tld=com,net&min_years=2&min_da=10&min_tf=5&dropped_after=${utcDate(NOW - 59 * DAY)}&sort=dropped_at&limit=100&offset=10000`,
    uncachedTotal: true,
  },
];

async function measure(dialect: Dialect): Promise<void> {
  const database = await benchDatabase(dialect);
  const env = {
    ...database.env,
    JOBS_SCHEDULER: 'off',
    // To measure the row cache's part: FEED_ROW_CACHE_ROWS=0 npm run bench -- domains-feed.bench
    ...(process.env.FEED_ROW_CACHE_ROWS ? { FEED_ROW_CACHE_ROWS: process.env.FEED_ROW_CACHE_ROWS } : {}),
  };
  const servers: ServerProcess<DomainIntelInfo>[] = [];
  const hello = await startHelloWorld();
  try {
    const setup = await createContext(loadDomainIntelConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const started = performance.now();
      await populateFeed(setup.database.db as unknown as Kysely<unknown>, dialect, ROWS, NOW);
      console.log(`${dialect}: ${ROWS} feed rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await setup.close();
    }
    const cached = await startDomainIntel({ env, keyedPing: true, feedIndexReady: true });
    servers.push(cached);
    const uncached = await startDomainIntel({ env: { ...env, FEED_COUNT_CACHE_SECONDS: '0' }, feedIndexReady: true });
    servers.push(uncached);
    const only = process.env.FEED_BENCH_SCENARIOS?.split(',');
    // What the feed page adds is measured against a keyed, counted no-op route of the same server.
    if (!only || only.includes('keyed-no-op')) {
      await reportAgainstHelloWorld({
        name: `domains-feed-${dialect}-keyed-no-op`,
        target: '>= 0.4',
        label: 'ping',
        hello,
        candidate: { server: cached, path: '/v1/bench/ping', headers: cached.info.headers },
        compare: { rounds: benchRounds(3), connections: 10, postgres: dialect === 'postgres' },
        details: { rows: ROWS },
      });
    }
    for (const scenario of scenarios.filter(({ name }) => !only || only.includes(name))) {
      const server = scenario.uncachedTotal ? uncached : cached;
      const path = `/v1/domains${scenario.query}`;
      const { headers } = server.info;
      const check = await fetch(server.url + path, { headers });
      const body = (await check.json()) as { data: unknown[]; meta: { total: number } };
      if (check.status !== 200) throw new Error(`${scenario.name}: ${check.status} ${JSON.stringify(body)}`);
      await reportAgainstHelloWorld({
        name: `domains-feed-${dialect}-${scenario.name}`,
        target: scenario.target ?? '>= 0.02',
        label: 'feed',
        hello,
        candidate: { server, path, headers },
        compare: { rounds: benchRounds(3), connections: 10, postgres: dialect === 'postgres' },
        details: { rows: ROWS, matches: body.meta.total, page_rows: body.data.length },
      });
    }
  } finally {
    await hello.close();
    for (const server of servers) await server.close();
    await database.cleanup();
  }
}

await measure('sqlite');
if (process.env.DATABASE_URL) await measure('postgres');
else console.log('DATABASE_URL is not set: the Postgres variant is skipped.');
