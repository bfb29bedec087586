/**
 * GET /v1/domains over 1 M feed rows, on SQLite and (with DATABASE_URL) on Postgres: the
 * default page, every filter at once, and pages at offset 10,000, each against a bare Fastify
 * hello-world measured in the same run (ratio of requests/s; p95 alongside). One scenario
 * runs with the `total` cache off, to show what counting costs. FEED_BENCH_ROWS overrides
 * the row count (quick runs).
 *
 * Target (none was given): at least 2 % of the hello-world's requests/s, i.e. a page of 100
 * enriched rows out of a million, with auth and quota, costs at most ~50 hello-worlds; the
 * uncached-total scenario is expected to miss it and shows what the `total` cache saves.
 */
import { randomBytes } from 'node:crypto';
import { type Dialect, utcDate } from '@repo/server-kit';
import { tempDir } from '@repo/server-kit/testing';
import { buildApp } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { populateFeed } from './domains-feed-rows.ts';
import { compareLoad, report, startHelloWorld } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_BENCH_ROWS ?? 1_000_000);
const NOW = Date.now();
const DAY = 86_400_000;

const scenarios: Array<{ name: string; query: string; uncachedTotal?: boolean }> = [
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
  const temp = tempDir('bench-feed');
  const schema = `bench_feed_${randomBytes(4).toString('hex')}`;
  const env = {
    DATA_DIR: temp.dir,
    LOG_LEVEL: 'silent',
    JOBS_SCHEDULER: 'off',
    ...(dialect === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL, POSTGRES_SCHEMA: schema } : {}),
  };
  const apps: FastifyInstance[] = [];
  const hello = await startHelloWorld();
  try {
    const app = await buildApp(loadDomainIntelConfig(env), { logger: false });
    apps.push(app);
    const started = performance.now();
    await populateFeed(app.ctx.database.db as unknown as Kysely<unknown>, dialect, ROWS, NOW);
    console.log(`${dialect}: ${ROWS} feed rows written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const uncached = await buildApp(loadDomainIntelConfig({ ...env, FEED_COUNT_CACHE_SECONDS: '0' }), {
      logger: false,
    });
    apps.push(uncached);
    const { key } = await app.ctx.accounts.signUp({ email: `bench-feed-${dialect}@example.com`, plan: 'enterprise' });
    const urls = {
      cached: await app.listen({ host: '127.0.0.1', port: 0 }),
      uncached: await uncached.listen({ host: '127.0.0.1', port: 0 }),
    };
    for (const scenario of scenarios) {
      const url = `${scenario.uncachedTotal ? urls.uncached : urls.cached}/v1/domains${scenario.query}`;
      const check = await fetch(url, { headers: { authorization: `Bearer ${key.key}` } });
      const body = (await check.json()) as { data: unknown[]; meta: { total: number } };
      if (check.status !== 200) throw new Error(`${scenario.name}: ${check.status} ${JSON.stringify(body)}`);
      const { ratio, baseline, candidate } = await compareLoad(
        { url: hello.url, connections: 10 },
        { url, headers: { authorization: `Bearer ${key.key}` }, connections: 10 },
      );
      report({
        name: `domains-feed-${dialect}-${scenario.name}`,
        ratio,
        target: '>= 0.02',
        details: {
          rows: ROWS,
          matches: body.meta.total,
          page_rows: body.data.length,
          feed_rps: candidate.requestsPerSecond,
          feed_p95_ms: candidate.p95Ms,
          hello_rps: baseline.requestsPerSecond,
          hello_p95_ms: baseline.p95Ms,
        },
      });
    }
  } finally {
    await hello.close();
    for (const app of apps) await app.close();
    temp.remove();
    if (dialect === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }
}

await measure('sqlite');
if (process.env.DATABASE_URL) await measure('postgres');
else console.log('DATABASE_URL is not set: the Postgres variant is skipped.');
