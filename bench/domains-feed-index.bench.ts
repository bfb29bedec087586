/**
 * The feed in milliseconds: latency of one feed answer (page of 100 + its exact total, total
 * never cached) over every sort × a spread of filter combinations × offsets 0, 1,000 and 10,000.
 *
 * 1. The in-memory feed index alone at FEED_INDEX_SIZES rows (default 1 M and 10 M; rows built in
 *    memory exactly as bench/domains-feed-rows.ts writes them): per query the wall time and the
 *    process's own CPU time (process.cpuUsage: on a shared machine far steadier than the wall
 *    clock), build time and memory (MB per million rows). Figures: CPU p95 ÷ 20 ms and wall
 *    p95 ÷ 20 ms (target <= 1), over every query and, on rows of their own, for `contains` of
 *    each of the labels' most common substrings of 2-6 bytes (the worst case of that filter).
 * 2. End to end through FeedService (page + total from the index, the page's rows from the
 *    database) against the SQL path, on SQLite and (with DATABASE_URL) Postgres, at
 *    FEED_BENCH_ROWS rows (default 1 M; FEED_BENCH_ROWS=0 skips it; FEED_BENCH_SQL_EVERY=n runs the
 *    SQL path, and checks the totals against it, for every n-th query only).
 *
 * The load average is printed with every figure: the machine's 2 cores are shared.
 */

import { loadavg } from 'node:os';
import { FEED_SORTS } from '@repo/contracts/domain-intel';
import { type FeedFilters, FeedIndex, type FeedPage, parseFeedFilters } from '@repo/feed-index';
import { type Dialect, ManualClock, utcDate } from '@repo/server-kit';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import type { Kysely } from 'kysely';
import { BenchLabels, commonNeedles } from './domains-feed-labels.ts';
import { FEED_BENCH_TLDS, feedBenchColumns, populateFeed } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { report } from './lib/harness.ts';

const SIZES = (process.env.FEED_INDEX_SIZES ?? '1000000,10000000').split(',').filter(Boolean).map(Number);
const DB_ROWS = Number(process.env.FEED_BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.FEED_INDEX_RUNS ?? 3);
// The SQL path takes seconds a query at 10 M rows: FEED_BENCH_SQL_EVERY=n runs it (and checks the
// totals against it) for every n-th query only.
const SQL_EVERY = Math.max(1, Number(process.env.FEED_BENCH_SQL_EVERY ?? 1));
const NOW = Date.now();
const DAY = 86_400_000;
const TARGET_MS = 20;
/** The most common substrings of the benchmark's labels (the first 50,000 labels decide: the same at every size). */
const COMMON_NEEDLES = (() => {
  const labels = new BenchLabels();
  return commonNeedles(Array.from({ length: 50_000 }, () => labels.next()));
})();

const FILTERS: Record<string, string>[] = [
  {},
  { tld: 'com' },
  { tld: 'com,net', min_da: '20' },
  { min_years: '5', min_tf: '10' },
  { tld: 'com,net', min_years: '2', min_da: '10', min_tf: '5', dropped_after: utcDate(NOW - 59 * DAY) },
  { tld: 'org', min_da: '90', min_tf: '70', dropped_after: utcDate(NOW - 5 * DAY), min_years: '20' },
  { status: 'any', max_length: '11', min_alt_tlds: '2' },
  { contains: '777', hyphens: 'false' },
  { dropped_after: utcDate(NOW - 2 * DAY), dropped_before: utcDate(NOW - DAY) },
  { min_da: '50', min_tf: '50', min_alt_tlds: '1' },
  { status: 'pending-delete', tld: 'com,net,org', min_years: '1' },
  { status: 'any', digits: 'false' },
  // The worst cases of `contains`: the labels' most common substrings of 2-6 bytes (each reported
  // on a row of its own as well), and FEED_INDEX_CONTAINS=ch12,… adds a filter set per needle.
  ...[...new Set([...COMMON_NEEDLES, ...(process.env.FEED_INDEX_CONTAINS ?? '').split(',').filter(Boolean)])].map(
    (needle) => ({ contains: needle }),
  ),
];
const OFFSETS = [0, 1_000, 10_000];

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function queries(): Array<{ name: string; filters: FeedFilters; page: FeedPage }> {
  const tracked = [...FEED_BENCH_TLDS];
  return FILTERS.flatMap((raw) =>
    FEED_SORTS.flatMap((sort) =>
      OFFSETS.map((offset) => ({
        name: `${new URLSearchParams(raw)}&sort=${sort}&offset=${offset}`,
        filters: parseFeedFilters(raw, tracked),
        page: { sort, limit: 100, offset },
      })),
    ),
  );
}

/** The index alone: wall and CPU time per query, and what it holds. */
function measureIndex(rows: number): void {
  let started = performance.now();
  const columns = feedBenchColumns(rows, NOW);
  const generateS = (performance.now() - started) / 1000;
  const heapBefore = process.memoryUsage();
  started = performance.now();
  // As FeedService builds it: recent filters' matches are kept for reuse within the feed version.
  const index = FeedIndex.fromColumns(columns, 0, { cachedFilters: 16 });
  const buildS = (performance.now() - started) / 1000;
  const list = queries();
  const wall: number[] = [];
  const cpu: number[] = [];
  const warmCpu: number[] = [];
  const perSet = new Map<string, { cpu: number[]; wall: number[] }>();
  for (let run = 0; run < RUNS; run++) {
    for (const query of list) {
      // Cold: the matches are found afresh for every query (the headline figure).
      index.forgetMatches();
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      const answer = index.page(query.filters, query.page, NOW);
      const wallMs = performance.now() - start;
      const used = process.cpuUsage(cpuStart);
      const cpuMs = (used.user + used.system) / 1000;
      if (answer.domains.length > query.page.limit) throw new Error('page too long');
      if (run === 0) continue; // the first run warms the JIT
      wall.push(wallMs);
      cpu.push(cpuMs);
      const filterSet = query.name.replace(/&?sort=.*$/, '') || '(no filter)';
      const set = perSet.get(filterSet) ?? { cpu: [], wall: [] };
      set.cpu.push(cpuMs);
      set.wall.push(wallMs);
      perSet.set(filterSet, set);
    }
  }
  // Warm: as a client pages and re-sorts one filter (the queries come filter by filter), reusing its matches.
  for (let run = 0; run < RUNS; run++) {
    index.forgetMatches();
    for (const query of list) {
      const cpuStart = process.cpuUsage();
      index.page(query.filters, query.page, NOW);
      const used = process.cpuUsage(cpuStart);
      if (run > 0) warmCpu.push((used.user + used.system) / 1000);
    }
  }
  const megabytes = index.bytes / 1_048_576;
  const heapAfter = process.memoryUsage();
  const cpuP95 = percentile(cpu, 95);
  const details = {
    rows,
    queries: list.length,
    load_average: load(),
    cpu_p50_ms: percentile(cpu, 50),
    cpu_p95_ms: cpuP95,
    cpu_max_ms: Math.max(...cpu),
    wall_p50_ms: percentile(wall, 50),
    wall_p95_ms: percentile(wall, 95),
    paging_cpu_p50_ms: percentile(warmCpu, 50),
    paging_cpu_p95_ms: percentile(warmCpu, 95),
    index_mb: megabytes,
    mb_per_million_rows: megabytes / (rows / 1_000_000),
    rss_growth_mb: (heapAfter.rss - heapBefore.rss) / 1_048_576,
    build_s: buildS,
    rows_generated_s: generateS,
  };
  report({ name: `domains-feed-index-memory-${rows}-cpu-p95`, ratio: cpuP95 / TARGET_MS, target: '<= 1', details });
  report({
    name: `domains-feed-index-memory-${rows}-wall-p95`,
    ratio: percentile(wall, 95) / TARGET_MS,
    target: '<= 1',
    details: { rows, load_average: load() },
  });
  for (const needle of COMMON_NEEDLES) {
    const set = perSet.get(new URLSearchParams({ contains: needle }).toString())!;
    report({
      name: `domains-feed-index-memory-${rows}-contains-${needle}-cpu-p95`,
      ratio: percentile(set.cpu, 95) / TARGET_MS,
      target: '<= 1',
      details: {
        rows,
        load_average: load(),
        cpu_p50_ms: percentile(set.cpu, 50),
        cpu_p95_ms: percentile(set.cpu, 95),
        wall_p50_ms: percentile(set.wall, 50),
        wall_p95_ms: percentile(set.wall, 95),
      },
    });
  }
  const worstFirst = [...perSet].map(([name, { cpu: ms }]) => ({
    name,
    p50: percentile(ms, 50),
    max: Math.max(...ms),
  }));
  for (const { name, p50, max } of worstFirst.sort((a, b) => b.max - a.max)) {
    console.log(
      `  CPU ms of the filter set over sorts, offsets and runs: p50 ${p50.toFixed(1).padStart(6)}, max ${max.toFixed(1).padStart(6)}  ${name}`,
    );
  }
}

/** End to end through FeedService, index against SQL, on one database. */
async function measureDatabase(dialect: Dialect): Promise<void> {
  const database = await benchDatabase(dialect);
  const env = { ...database.env, LOG_LEVEL: 'silent', JOBS_SCHEDULER: 'off', FEED_COUNT_CACHE_SECONDS: '0' };
  const clock = new ManualClock(new Date(NOW).toISOString());
  const sqlContext = await createContext(loadDomainIntelConfig({ ...env, FEED_INDEX: 'off' }), { clock });
  const memoryContext = await createContext(loadDomainIntelConfig({ ...env, FEED_INDEX: 'memory' }), { clock });
  try {
    let started = performance.now();
    await populateFeed(sqlContext.database.db as unknown as Kysely<unknown>, dialect, DB_ROWS, NOW);
    const populateS = (performance.now() - started) / 1000;
    started = performance.now();
    const index = await memoryContext.feed.index();
    const buildS = (performance.now() - started) / 1000;
    if (!index) throw new Error('the feed index was not built');
    console.log(
      `${dialect}: ${DB_ROWS} rows written in ${populateS.toFixed(1)} s, index loaded in ${buildS.toFixed(1)} s`,
    );
    const list = queries();
    const timings = { memory: [] as number[], memoryCpu: [] as number[], sql: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      for (const [position, query] of list.entries()) {
        const cpuStart = process.cpuUsage();
        let start = performance.now();
        const answer = await memoryContext.feed.list(query.filters, query.page);
        const wallMs = performance.now() - start;
        const used = process.cpuUsage(cpuStart);
        if (answer.records.length > query.page.limit) throw new Error('page too long');
        if (run > 0) {
          timings.memory.push(wallMs);
          timings.memoryCpu.push((used.user + used.system) / 1000);
        }
        // SQL takes up to seconds a query at this size: once is enough.
        if (run !== 1 || position % SQL_EVERY !== 0) continue;
        start = performance.now();
        const viaSql = await sqlContext.feed.list(query.filters, query.page);
        timings.sql.push(performance.now() - start);
        if (viaSql.total !== answer.total) throw new Error(`${query.name}: totals differ`);
      }
    }
    const p95 = percentile(timings.memory, 95);
    report({
      name: `domains-feed-index-${dialect}-p95`,
      ratio: p95 / TARGET_MS,
      target: '<= 1',
      details: {
        rows: DB_ROWS,
        queries: list.length,
        load_average: load(),
        index_p50_ms: percentile(timings.memory, 50),
        index_p95_ms: p95,
        index_cpu_p95_ms: percentile(timings.memoryCpu, 95),
        sql_p50_ms: percentile(timings.sql, 50),
        sql_p95_ms: percentile(timings.sql, 95),
        sql_queries: timings.sql.length,
        index_mb: index.bytes / 1_048_576,
        index_load_s: buildS,
        rows_written_s: populateS,
      },
    });
  } finally {
    await memoryContext.close();
    await sqlContext.close();
    await database.cleanup();
  }
}

console.log(`load average at start: ${load()}`);
for (const rows of SIZES) measureIndex(rows);
if (DB_ROWS > 0) {
  await measureDatabase('sqlite');
  if (process.env.DATABASE_URL) await measureDatabase('postgres');
  else console.log('DATABASE_URL is not set: the Postgres variant is skipped.');
}
console.log(`load average at end: ${load()}`);
