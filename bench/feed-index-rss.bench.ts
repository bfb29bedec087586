/**
 * What the in-memory feed index costs a real server, in its resident memory: the Domain
 * Intelligence API in a process of its own on a SQLite feed of FEED_RSS_SIZES rows (default 1 M
 * and 10 M), once with the index off (the baseline, same run, same database) and once with it
 * on, each serving the same feed pages before it is read. The figure is the resident memory the
 * index adds per million rows (target <= 80 MB, issue 35), read from /proc/<pid>/smaps_rollup:
 * Rss (what `ps` shows), and Pss (each shared page divided among the processes mapping it: with
 * FEED_RSS_PROCESSES > 1 servers of one host, what each really costs when they share one copy).
 *
 * Memory is read after the pages were served and the process has been idle for FEED_RSS_SETTLE_MS
 * (default 5 s), so the build's temporary arrays (in its worker) have been given back as far as the
 * allocator gives them back: that is what a server keeps, not what it peaks at.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import type { Kysely } from 'kysely';
import { populateFeed } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { type DomainIntelInfo, startDomainIntel } from './lib/domain-intel.ts';
import { report, type ServerProcess } from './lib/harness.ts';

const SIZES = (process.env.FEED_RSS_SIZES ?? '1000000,10000000').split(',').filter(Boolean).map(Number);
const PROCESSES = Math.max(1, Number(process.env.FEED_RSS_PROCESSES ?? 1));
const SETTLE_MS = Number(process.env.FEED_RSS_SETTLE_MS ?? 5_000);
const TARGET_MB_PER_MILLION = 80;
const NOW = Date.now();
const DAY = 86_400_000;

/** Pages every server serves before its memory is read: broad and narrow filters, every sort. */
const PAGES = [
  '?limit=100',
  '?limit=100&offset=10000&sort=da',
  '?tld=com,net&min_da=20&sort=tf&limit=100',
  `?dropped_after=${new Date(NOW - 2 * DAY).toISOString().slice(0, 10)}&sort=age&limit=100`,
  '?contains=ing&sort=alt_tld_count&limit=100',
  '?status=any&max_length=8&hyphens=false&limit=100&offset=1000',
];

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** Rss and Pss of a process, in MB (kB lines of /proc/<pid>/smaps_rollup). */
function residentMb(pid: number): { rss: number; pss: number; anonymous: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) / 1024;
  return { rss: field('Rss'), pss: field('Pss'), anonymous: field('Anonymous') };
}

async function servePages(server: ServerProcess<DomainIntelInfo>): Promise<void> {
  for (const page of PAGES) {
    const response = await fetch(`${server.url}/v1/domains${page}`, { headers: server.info.headers });
    if (response.status !== 200) throw new Error(`GET /v1/domains${page}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
}

/** Starts `count` servers on one database, serves the pages on each, waits, and reads their memory. */
async function measureServers(
  env: Record<string, string>,
  count: number,
  indexOn: boolean,
): Promise<Array<{ rss: number; pss: number; anonymous: number }>> {
  const servers: ServerProcess<DomainIntelInfo>[] = [];
  try {
    for (let i = 0; i < count; i++) {
      servers.push(
        await startDomainIntel({
          env: { ...env, FEED_INDEX: indexOn ? 'memory' : 'off' },
          feedIndexReady: indexOn,
          quiet: true,
        }),
      );
    }
    for (const server of servers) await servePages(server);
    await sleep(SETTLE_MS);
    // With BENCH_SERVER_NODE_FLAGS=--expose-gc: after a full collection (what is garbage is not kept).
    for (const server of servers) await server.collectGarbage();
    return servers.map((server) => residentMb(server.pid));
  } finally {
    for (const server of servers) await server.close();
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

for (const rows of SIZES) {
  const database = await benchDatabase('sqlite');
  try {
    const env = { ...database.env, JOBS_SCHEDULER: 'off' };
    const setup = await createContext(loadDomainIntelConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const started = performance.now();
      await populateFeed(setup.database.db as unknown as Kysely<unknown>, 'sqlite', rows, NOW);
      console.log(
        `${rows} feed rows written in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`,
      );
    } finally {
      await setup.close();
    }
    const millions = rows / 1_000_000;
    const off = await measureServers(env, 1, false);
    const on = await measureServers(env, PROCESSES, true);
    const baseline = off[0]!;
    const perProcessRss = on.map((memory) => (memory.rss - baseline.rss) / millions);
    const perProcessPss = on.map((memory) => (memory.pss - baseline.pss) / millions);
    // The host's cost: every process's Pss, less what each would cost without the index.
    const hostPss = (sum(on.map((memory) => memory.pss)) - PROCESSES * baseline.pss) / millions;
    const worstRss = Math.max(...perProcessRss);
    console.log(
      `${rows} rows, ${PROCESSES} process(es): index off Rss ${baseline.rss.toFixed(0)} MB; on ${on.map((m) => `Rss ${m.rss.toFixed(0)} / Pss ${m.pss.toFixed(0)} / anonymous ${m.anonymous.toFixed(0)} MB`).join('; ')} (load ${load()})`,
    );
    report({
      name: `feed-index-rss-${rows}${PROCESSES > 1 ? `-${PROCESSES}-processes` : ''}`,
      ratio: worstRss / TARGET_MB_PER_MILLION,
      target: '<= 1',
      details: {
        rows,
        processes: PROCESSES,
        rss_mb_per_million_rows: worstRss,
        pss_mb_per_million_rows: Math.max(...perProcessPss),
        host_pss_mb_per_million_rows: hostPss,
        baseline_rss_mb: baseline.rss,
        load_average: load(),
      },
    });
  } finally {
    await database.cleanup();
  }
}
