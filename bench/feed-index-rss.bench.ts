/**
 * What the in-memory feed index costs a real server, in resident memory: the Domain Intelligence
 * API in a process of its own on a SQLite feed of FEED_RSS_SIZES rows (default 1 M and 10 M), once
 * with the index off (the baseline, same run, same database) and once with it on, each serving the
 * same feed pages before it is read. Target (issue 35): at most 80 MB per million rows.
 *
 * Read from /proc/<pid>/smaps_rollup: the index's arrays are either the process's own (anonymous
 * memory: built here, or FEED_INDEX_DIR='' with FEED_RSS_SNAPSHOTS=off) or pages of the snapshot
 * file it maps (one copy in the page cache for every process of the host, resident in a process
 * only where it has read them). So the figure per process is its anonymous memory beyond the
 * baseline's plus the whole snapshot file (every page read), and the host's is the file once plus
 * every process's anonymous growth. With FEED_RSS_PROCESSES=3, the first server builds and the
 * others map its snapshot. Rss and Pss are printed as well.
 *
 * Memory is read after the pages were served and the process has been idle for FEED_RSS_SETTLE_MS
 * (default 5 s), and after a full collection when the servers run with
 * BENCH_SERVER_NODE_FLAGS=--expose-gc: what a server keeps, not what it peaks at.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
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
const SNAPSHOTS = process.env.FEED_RSS_SNAPSHOTS !== 'off';
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

interface Resident {
  rss: number;
  pss: number;
  anonymous: number;
}

/** Rss, Pss and anonymous memory of a process, in MB (kB lines of /proc/<pid>/smaps_rollup). */
function residentMb(pid: number): Resident {
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
async function measureServers(env: Record<string, string>, count: number, indexOn: boolean): Promise<Resident[]> {
  const servers: ServerProcess<DomainIntelInfo>[] = [];
  try {
    for (let i = 0; i < count; i++) {
      servers.push(
        await startDomainIntel({
          env: { ...env, FEED_INDEX: indexOn ? 'memory' : 'off', ...(SNAPSHOTS ? {} : { FEED_INDEX_DIR: '' }) },
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

/** The snapshot files in the index's directory (one per feed version kept), in MB; 0 without any. */
function snapshotFilesMb(directory: string): number {
  let bytes = 0;
  try {
    for (const name of readdirSync(directory))
      if (name.endsWith('.snapshot')) bytes += statSync(path.join(directory, name)).size;
  } catch {
    return 0; // no directory: snapshots off
  }
  return bytes / 1_048_576;
}

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
    const [baseline] = await measureServers(env, 1, false);
    const on = await measureServers(env, PROCESSES, true);
    const snapshotMb = snapshotFilesMb(path.join(database.dataDir, 'feed-index'));
    const privateGrowth = on.map((memory) => memory.anonymous - baseline!.anonymous);
    const perProcess = Math.max(...privateGrowth) + snapshotMb;
    const host = privateGrowth.reduce((total, growth) => total + growth, 0) + snapshotMb;
    console.log(
      `${rows} rows, ${PROCESSES} process(es), snapshot ${snapshotMb.toFixed(0)} MB: index off Rss ${baseline!.rss.toFixed(0)} / anonymous ${baseline!.anonymous.toFixed(0)} MB; on ${on.map((m) => `Rss ${m.rss.toFixed(0)} / Pss ${m.pss.toFixed(0)} / anonymous ${m.anonymous.toFixed(0)} MB`).join('; ')} (load ${load()})`,
    );
    report({
      name: `feed-index-rss-${rows}${PROCESSES > 1 ? `-${PROCESSES}-processes` : ''}${SNAPSHOTS ? '' : '-no-snapshot'}`,
      ratio: perProcess / millions / TARGET_MB_PER_MILLION,
      target: '<= 1',
      details: {
        rows,
        processes: PROCESSES,
        mb_per_million_rows: perProcess / millions,
        private_mb_per_million_rows: privateGrowth.map((growth) => (growth / millions).toFixed(1)).join('/'),
        snapshot_mb_per_million_rows: snapshotMb / millions,
        host_mb_per_million_rows: host / millions,
        rss_growth_mb_per_million_rows: (Math.max(...on.map((memory) => memory.rss)) - baseline!.rss) / millions,
        load_average: load(),
      },
    });
  } finally {
    await database.cleanup();
  }
}
