/**
 * Daily apply at `.com` churn: the daily job's database work for one TLD-day — the zone diff
 * of a 5 M-name zone with 100,000 removals and 100,000 additions applied to the lifecycle, then
 * alt-TLD demand for every row it touched — on SQLite and on PostgreSQL (when DATABASE_URL is
 * set), each in a process of its own. The figure is the time against the 30 s target; the
 * shell diff of the same two files (`comm -3` of the sorted names, in its own process, same
 * run) is printed beside it as the floor of the work that is not database writes.
 * Before the timed day the feed already holds 100,000 names that left the zone the day
 * before; 20,000 of them come back on the timed day (`returned`).
 * Sizes: BENCH_DAILY_APPLY_NAMES (default 5000000), BENCH_DAILY_APPLY_CHURN (default 100000).
 * Besides wall time it prints CPU time, steadier on a shared machine: the applying process's,
 * and on Postgres (when the server runs on this host) that of its server backends too, read
 * from /proc for the backends that carry the run's application_name; and the load average.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PROC_TICKS_PER_SECOND, readProcStat } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import type { ZoneChange } from 'domain-intel/src/lifecycle/zone-evidence.ts';
import { diffSnapshots } from 'domain-intel/src/zones/snapshot-diff.ts';
import pg from 'pg';
import { report } from './lib/harness.ts';
import { writeSnapshotPair } from './lib/synthetic-snapshots.ts';

const run = promisify(execFile);
const BEFORE = '2026-03-09';
const DAY = '2026-03-10';
const TARGET_MS = 30_000;
const RETURNING = 20_000;

interface ApplyFigures {
  /** CPU time of the applying process (user + system): on SQLite all the work, on Postgres the client's share. */
  cpuMs: number;
  /** Postgres: CPU time of the run's server backends, when the server runs on this host. */
  serverCpuMs?: number;
  /** Postgres: the part of `serverCpuMs` spent in the alt-TLD refresh. */
  altTldServerCpuMs?: number;
  diffAndLifecycleMs: number;
  altTldMs: number;
  removed: number;
  added: number;
  transitions: number;
  altTldRows: number;
}

async function main(): Promise<void> {
  const size = Number(process.env.BENCH_DAILY_APPLY_NAMES ?? 5_000_000);
  const churn = Number(process.env.BENCH_DAILY_APPLY_CHURN ?? 100_000);
  const data = mkdtempSync(path.join(tmpdir(), 'daily-apply-bench-'));
  try {
    const snapshots = path.join(data, 'zones', 'snapshots');
    const changes = { removed: [] as string[], added: [] as string[] };
    await writeSnapshotPair(
      path.join(snapshots, 'com'),
      { size, churn: churn / size, older: BEFORE, newer: DAY },
      changes,
    );
    // Another tracked TLD sharing the first fifth of the labels, for alt-TLD demand.
    await writeSnapshotPair(path.join(snapshots, 'net'), {
      size: Math.round(size / 5),
      churn: 0,
      older: BEFORE,
      newer: DAY,
      tld: 'net',
      seed: size,
    });
    const older = path.join(snapshots, 'com', `${BEFORE}.txt.gz`);
    const newer = path.join(snapshots, 'com', `${DAY}.txt.gz`);
    const shellMs = await timeShell(
      `LC_ALL=C comm -3 <(zcat '${older}' | LC_ALL=C sort -u) <(zcat '${newer}' | LC_ALL=C sort -u) > /dev/null`,
    );
    const returningFile = path.join(data, 'returning.txt');
    writeFileSync(returningFile, changes.added.slice(0, RETURNING).join('\n'));
    const targets = [{ name: 'sqlite', env: {} as Record<string, string> }];
    if (process.env.DATABASE_URL) targets.push({ name: 'postgres', env: {} });
    for (const target of targets) {
      const schema = target.name === 'postgres' ? await createSchema() : undefined;
      if (schema) {
        // Names the run's server backends, so the child can read their CPU time.
        const url = new URL(process.env.DATABASE_URL!);
        url.searchParams.set('application_name', schema);
        target.env = { DATABASE_URL: url.toString() };
      }
      const dataDir = path.join(data, target.name);
      rmSync(dataDir, { recursive: true, force: true });
      try {
        const loadBefore = loadavg()[0]!;
        const figures = await applyInChild({
          ...target.env,
          ...(schema ? { POSTGRES_SCHEMA: schema } : {}),
          DATA_DIR: dataDir,
          SNAPSHOTS: snapshots,
          RETURNING_FILE: returningFile,
        });
        const total = figures.diffAndLifecycleMs + figures.altTldMs;
        report({
          name: `daily-apply-${target.name}-vs-30s`,
          ratio: total / TARGET_MS,
          target: '< 1',
          details: {
            names: size,
            removed: figures.removed,
            added: figures.added,
            transitions: figures.transitions,
            alt_tld_rows: figures.altTldRows,
            total_ms: Math.round(total),
            process_cpu_ms: Math.round(figures.cpuMs),
            ...(figures.serverCpuMs === undefined
              ? {}
              : {
                  server_cpu_ms: Math.round(figures.serverCpuMs),
                  alt_tld_server_cpu_ms: Math.round(figures.altTldServerCpuMs!),
                }),
            diff_and_lifecycle_ms: Math.round(figures.diffAndLifecycleMs),
            alt_tld_ms: Math.round(figures.altTldMs),
            shell_diff_ms: Math.round(shellMs),
            load_1min_before: loadBefore.toFixed(1),
            load_1min_after: loadavg()[0]!.toFixed(1),
          },
        });
      } finally {
        if (schema) await dropSchema(schema);
      }
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

async function applyInChild(env: Record<string, string>): Promise<ApplyFigures> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--apply'], {
    env: { PATH: process.env.PATH, ...env },
    maxBuffer: 64 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ApplyFigures;
}

async function timeShell(command: string): Promise<number> {
  const start = performance.now();
  await run('bash', ['-c', `set -o pipefail; ${command}`]);
  return performance.now() - start;
}

async function createSchema(): Promise<string> {
  const schema = `bench_daily_${Date.now()}`;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return schema;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

/** Child mode: seed the day before, then time the day's diff, lifecycle and alt-TLD demand. */
async function applyDay(): Promise<void> {
  const dataDir = process.env.DATA_DIR!;
  cpSync(process.env.SNAPSHOTS!, path.join(dataDir, 'zones', 'snapshots'), { recursive: true });
  const config = loadDomainIntelConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JOBS_SCHEDULER: 'off',
    TRACKED_TLDS: 'com,net',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const ctx = await createContext(config, { postgresSchema: process.env.POSTGRES_SCHEMA });
  try {
    // The day before: 100,000 names left the zone (80,000 stay gone, 20,000 return today).
    const returning = readFileSync(process.env.RETURNING_FILE!, 'utf8').split('\n');
    const gone = Array.from({ length: 100_000 - returning.length }, (_, i) => `gone${String(i).padStart(6, '0')}.com`);
    async function* yesterday(): AsyncGenerator<ZoneChange> {
      for (const name of [...returning, ...gone].sort()) yield { name, change: 'removed' };
    }
    await ctx.lifecycle.applyZoneDiff({ tld: 'com', fromDate: '2026-03-08', toDate: BEFORE, changes: yesterday() });
    await ctx.enrichment.refreshAltTldDemand();
    // Yesterday's rows were refreshed against yesterday's snapshot date: move them back so the
    // timed refresh redoes them too, as the real job does for every row in the pipeline.
    await ctx.database.db.updateTable('feed_domains').set({ alt_tlds_date: '2026-03-08' }).execute();

    const meter = process.env.DATABASE_URL ? await ServerCpuMeter.start(process.env.DATABASE_URL) : undefined;
    const serverCpuAtStart = await meter?.reading();
    const cpuAtStart = process.cpuUsage();
    let start = performance.now();
    const diff = await ctx.lifecycle.applyZoneDiff({
      tld: 'com',
      fromDate: BEFORE,
      toDate: DAY,
      changes: diffSnapshots(ctx.snapshots, 'com', BEFORE, DAY),
    });
    const diffAndLifecycleMs = performance.now() - start;
    const serverCpuAfterDiff = await meter?.reading();
    start = performance.now();
    const altTldRows = await ctx.enrichment.refreshAltTldDemand();
    const altTldMs = performance.now() - start;
    const cpu = process.cpuUsage(cpuAtStart);
    const serverCpuAtEnd = await meter?.reading();
    await meter?.stop();
    const figures: ApplyFigures = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      ...(serverCpuAtStart && serverCpuAfterDiff && serverCpuAtEnd
        ? {
            serverCpuMs: serverCpuSpent(serverCpuAtStart, serverCpuAtEnd),
            altTldServerCpuMs: serverCpuSpent(serverCpuAfterDiff, serverCpuAtEnd),
          }
        : {}),
      diffAndLifecycleMs,
      altTldMs,
      removed: diff.removed,
      added: diff.added,
      transitions: diff.transitions,
      altTldRows,
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await ctx.close();
  }
}

/**
 * CPU milliseconds of each server backend of this run (by pid), read from /proc for the
 * backends that carry the run's application_name. Polled on a connection of its own, because the
 * pool closes a client idle for 10 s and its backend's counters go with it: the last reading of
 * a backend that has exited still counts. Only when the server runs on this host.
 */
class ServerCpuMeter {
  readonly #cpu = new Map<number, number>();
  readonly #timer: NodeJS.Timeout;
  #polling: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: pg.Client,
    private readonly applicationName: string,
  ) {
    this.#timer = setInterval(() => void this.reading(), 250);
  }

  static async start(databaseUrl: string): Promise<ServerCpuMeter | undefined> {
    const url = new URL(databaseUrl);
    const applicationName = url.searchParams.get('application_name');
    if (!applicationName) return undefined;
    url.searchParams.set('application_name', `${applicationName}-meter`);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const meter = new ServerCpuMeter(client, applicationName);
    return (await meter.reading()) ? meter : undefined;
  }

  /** Every backend's CPU so far, or undefined when /proc does not show them (another host). */
  async reading(): Promise<Map<number, number> | undefined> {
    this.#polling = this.#polling.then(() => this.#poll());
    await this.#polling;
    return this.#cpu.size > 0 ? new Map(this.#cpu) : undefined;
  }

  async #poll(): Promise<void> {
    const { rows } = await this.client.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1',
      [this.applicationName],
    );
    for (const { pid } of rows) {
      const stat = readProcStat(`/proc/${pid}/stat`);
      // Null when it exited since the query, or is not on this host: its last reading stands.
      if (stat) this.#cpu.set(pid, ((stat.userTicks + stat.systemTicks) * 1000) / PROC_TICKS_PER_SECOND);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#polling;
    await this.client.end();
  }
}

/** CPU milliseconds the backends spent between two readings (a backend new since `before` counts whole). */
function serverCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  return [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
}

if (process.argv[2] === '--apply') await applyDay();
else await main();
