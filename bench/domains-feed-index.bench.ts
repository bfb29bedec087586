/**
 * The feed in milliseconds: p95 latency of one feed answer (page of 100 + its exact total,
 * total never cached) over every sort × a spread of filter combinations × offsets 0, 1,000
 * and 10,000, from the in-memory feed index (FEED_INDEX=memory) and from SQL, on SQLite and
 * (with DATABASE_URL) Postgres. FEED_BENCH_ROWS rows (default 1 M). Figure: index p95 ÷ 20 ms
 * (target <= 1); SQL p95, build times and index memory alongside.
 */

import { FEED_SORTS } from '@repo/contracts/domain-intel';
import { type Dialect, ManualClock, utcDate } from '@repo/server-kit';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import { type FeedFilters, parseFeedFilters } from 'domain-intel/src/feed/filters.ts';
import type { Kysely } from 'kysely';
import { FEED_BENCH_TLDS, populateFeed } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { report } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.FEED_INDEX_RUNS ?? 3);
const NOW = Date.now();
const DAY = 86_400_000;
const TARGET_MS = 20;

const FILTERS: Record<string, string>[] = [
  {},
  { tld: 'com' },
  { tld: 'com,net', min_da: '20' },
  { min_years: '5', min_tf: '10' },
  { tld: 'com,net', min_years: '2', min_da: '10', min_tf: '5', dropped_after: utcDate(NOW - 59 * DAY) },
  { tld: 'org', min_da: '90', min_tf: '70', dropped_after: utcDate(NOW - 5 * DAY), min_years: '20' },
  { status: 'any', max_length: '11', min_alt_tlds: '2' },
  { contains: '777', hyphens: 'false' },
];
const OFFSETS = [0, 1_000, 10_000];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function measure(dialect: Dialect): Promise<void> {
  const database = await benchDatabase(dialect);
  const env = {
    ...database.env,
    LOG_LEVEL: 'silent',
    JOBS_SCHEDULER: 'off',
    FEED_COUNT_CACHE_SECONDS: '0',
  };
  const clock = new ManualClock(new Date(NOW).toISOString());
  const sqlContext = await createContext(loadDomainIntelConfig(env), { clock });
  const memoryContext = await createContext(loadDomainIntelConfig({ ...env, FEED_INDEX: 'memory' }), { clock });
  try {
    let started = performance.now();
    await populateFeed(sqlContext.database.db as unknown as Kysely<unknown>, dialect, ROWS, NOW);
    const populateS = (performance.now() - started) / 1000;
    started = performance.now();
    const index = await memoryContext.feed.index();
    const buildS = (performance.now() - started) / 1000;
    if (!index) throw new Error('the feed index was not built');
    console.log(`${dialect}: ${ROWS} rows written in ${populateS.toFixed(1)} s, index built in ${buildS.toFixed(1)} s`);

    const tracked = [...FEED_BENCH_TLDS];
    const queries: Array<{ filters: FeedFilters; sort: (typeof FEED_SORTS)[number]; offset: number }> = [];
    for (const raw of FILTERS)
      for (const sort of FEED_SORTS)
        for (const offset of OFFSETS) queries.push({ filters: parseFeedFilters(raw, tracked), sort, offset });
    const timings = { memory: [] as number[], sql: [] as number[], indexOnly: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      for (const query of queries) {
        const page = { sort: query.sort, limit: 100, offset: query.offset };
        for (const [name, context] of [
          ['memory', memoryContext],
          ['sql', sqlContext],
        ] as const) {
          if (name === 'sql' && run > 0) continue; // SQL takes seconds a query at this size: once is enough.
          const start = performance.now();
          const answer = await context.feed.list(query.filters, page);
          timings[name].push(performance.now() - start);
          if (answer.records.length > 100) throw new Error('page too long');
        }
        const start = performance.now();
        index.page(query.filters, page, NOW);
        timings.indexOnly.push(performance.now() - start);
      }
    }
    const memoryP95 = percentile(timings.memory, 95);
    report({
      name: `domains-feed-index-${dialect}-p95`,
      ratio: memoryP95 / TARGET_MS,
      target: '<= 1',
      details: {
        rows: ROWS,
        queries: queries.length,
        index_p50_ms: percentile(timings.memory, 50),
        index_p95_ms: memoryP95,
        index_max_ms: Math.max(...timings.memory),
        index_only_p50_ms: percentile(timings.indexOnly, 50),
        index_only_p95_ms: percentile(timings.indexOnly, 95),
        sql_p50_ms: percentile(timings.sql, 50),
        sql_p95_ms: percentile(timings.sql, 95),
        index_mb: index.columns.bytes / 1_048_576 + (index.columns.size * 4 * FEED_SORTS.length) / 1_048_576,
        index_build_s: buildS,
        rows_written_s: populateS,
      },
    });
  } finally {
    await memoryContext.close();
    await sqlContext.close();
    await database.cleanup();
  }
}

await measure('sqlite');
if (process.env.DATABASE_URL) await measure('postgres');
else console.log('DATABASE_URL is not set: the Postgres variant is skipped.');
