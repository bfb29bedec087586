/**
 * How long the feed index build holds the API's thread: the longest pause of the main thread's
 * event loop during a full build, with the build on that thread (the baseline: FeedIndex.fromColumns)
 * and in its worker thread (FeedIndex.build, as FeedService does after each pipeline run).
 *
 * 1. At FEED_BUILD_SIZES rows (default 1 M and 10 M; rows as bench/domains-feed-rows.ts makes
 *    them, in memory), each mode in a process of its own (so each has its own peak RSS): the
 *    longest pause (a 5 ms timer's largest lateness, and perf_hooks.monitorEventLoopDelay's max),
 *    the same probe on the idle loop afterwards (on a loaded machine a thread waits for a core
 *    whatever it runs: that part of a pause is not the build's), the main thread's own CPU time
 *    (the steadiest figure of what the build costs it), the build's wall time, the process's CPU
 *    time over the build (all threads) and peak RSS.
 *    Figures: worker longest pause ÷ the 50 ms target (<= 1; on a loaded machine compare it with
 *    the idle loop's); the main thread's CPU over a worker build with no probe (a third process)
 *    ÷ 50 ms (<= 1: no pause of the build's own can be longer); worker build CPU ÷ the in-thread build's
 *    (how much the hand-over and the worker's start cost); the in-thread build's longest pause on a
 *    row of its own, judged against nothing (the baseline the worker is there to avoid).
 * 2. End to end on SQLite (and PostgreSQL with DATABASE_URL) at FEED_BUILD_DB_ROWS rows (default
 *    1 M; 0 skips): FeedService's whole rebuild, loading the rows in keyset batches on the API
 *    thread and building in the worker; figure: its longest pause ÷ 50 ms, with the idle loop's
 *    longest pause afterwards alongside (on a loaded machine a thread waits for a core whatever it runs).
 *
 * The load average is printed with every figure: the machine's 2 cores are shared.
 */

import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FeedColumnChunks, FeedIndex } from '@repo/feed-index';
import { type Dialect, ManualClock } from '@repo/server-kit';
import { PROC_TICKS_PER_SECOND, readProcStat } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import type { Kysely } from 'kysely';
import { feedBenchChunks, feedBenchColumns, populateFeed, releaseFeedBenchLabels } from './domains-feed-rows.ts';
import { benchDatabase } from './lib/bench-database.ts';
import { report } from './lib/harness.ts';

const SIZES = (process.env.FEED_BUILD_SIZES ?? '1000000,10000000').split(',').filter(Boolean).map(Number);
const DB_ROWS = Number(process.env.FEED_BUILD_DB_ROWS ?? 1_000_000);
const TARGET_PAUSE_MS = 50;
const NOW = Date.now();
/** `worker-unprobed`: the worker build with no probe running, for the main thread's CPU alone. */
const MODES = ['in-thread', 'worker', 'worker-unprobed'] as const;
type Mode = (typeof MODES)[number];

interface BuildFigures {
  mode: Mode;
  rows: number;
  longestPauseMs: number;
  loopDelayMaxMs: number;
  /** The same probe on the idle loop for as long again (up to 10 s) after the build: what the shared machine alone causes. */
  idlePauseMs: number;
  /** CPU time of the main thread alone over the build (Linux: /proc/self/task/<pid>/stat). */
  mainThreadCpuS: number;
  /** The same over the idle probe afterwards: the probe's own cost, per second. */
  idleMainThreadCpuSPerS: number;
  wallS: number;
  cpuS: number;
  rssBeforeMb: number;
  peakRssMb: number;
  indexMb: number;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/**
 * Watches the main thread's event loop: a 5 ms timer's largest lateness (a pause it could not
 * fire through) and the loop delay histogram's max.
 */
function pauseProbe(): { stop(): { longestPauseMs: number; loopDelayMaxMs: number } } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      histogram.disable();
      longest = Math.max(longest, performance.now() - last - 5);
      return { longestPauseMs: longest, loopDelayMaxMs: histogram.max / 1e6 };
    },
  };
}

/** CPU seconds the main thread (whose thread id is the process id) has used; NaN where /proc is missing. */
function mainThreadCpuSeconds(): number {
  const stat = readProcStat(`/proc/self/task/${process.pid}/stat`);
  return stat ? (stat.userTicks + stat.systemTicks) / PROC_TICKS_PER_SECOND : Number.NaN;
}

/** The generated labels are the benchmark's, not the API's: gone, and collected, before a measurement. */
function forgetLabels(): void {
  releaseFeedBenchLabels();
  (globalThis as { gc?: () => void }).gc?.();
}

/** One build in this process (a child of the benchmark), printed as a BUILD line. */
async function measureBuild(mode: Mode, rows: number): Promise<void> {
  // The worker gets the rows in chunks, as the app's loadFeedIndex fills them from the database.
  const loaded = mode === 'in-thread' ? feedBenchColumns(rows, NOW) : feedBenchChunks(rows, NOW);
  forgetLabels();
  const rssBeforeMb = process.memoryUsage().rss / 1_048_576;
  // Let the probe's timer settle before the build starts.
  const probe = mode === 'worker-unprobed' ? undefined : pauseProbe();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const cpuStart = process.cpuUsage();
  const mainCpuStart = mainThreadCpuSeconds();
  const started = performance.now();
  const index =
    loaded instanceof FeedColumnChunks
      ? await FeedIndex.build(loaded, 0, { cachedFilters: 16 })
      : FeedIndex.fromColumns(loaded, 0, { cachedFilters: 16 });
  const wallS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const mainThreadCpuS = mainThreadCpuSeconds() - mainCpuStart;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const pauses = probe?.stop() ?? { longestPauseMs: Number.NaN, loopDelayMaxMs: Number.NaN };
  const idle = pauseProbe();
  const idleCpuStart = mainThreadCpuSeconds();
  const idleS = Math.min(10, wallS);
  await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
  const idlePauseMs = idle.stop().longestPauseMs;
  const idleMainThreadCpuSPerS = (mainThreadCpuSeconds() - idleCpuStart) / idleS;
  const figures: BuildFigures = {
    mode,
    rows,
    ...pauses,
    idlePauseMs,
    mainThreadCpuS,
    idleMainThreadCpuSPerS,
    wallS,
    cpuS: (cpu.user + cpu.system) / 1e6,
    rssBeforeMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    indexMb: index.bytes / 1_048_576,
  };
  console.log(`BUILD ${JSON.stringify(figures)}`);
}

/** Milliseconds for the log; a figure not measured (NaN, null once through JSON) as a dash. */
const ms = (value: number | null) => (value === null || Number.isNaN(value) ? '–' : `${value.toFixed(1)} ms`);

/** Runs one build in a fresh process and returns its figures. */
function buildInChild(mode: Mode, rows: number): Promise<BuildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', fileURLToPath(import.meta.url)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FEED_BUILD_CHILD: JSON.stringify({ mode, rows }) },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      const line = output.split('\n').find((candidate) => candidate.startsWith('BUILD '));
      if (code !== 0 || !line) reject(new Error(`the ${mode} build of ${rows} rows failed (exit code ${code})`));
      else resolve(JSON.parse(line.slice('BUILD '.length)) as BuildFigures);
    });
  });
}

async function compareBuilds(rows: number): Promise<void> {
  const inThread = await buildInChild('in-thread', rows);
  const worker = await buildInChild('worker', rows);
  const unprobed = await buildInChild('worker-unprobed', rows);
  for (const figures of [inThread, worker, unprobed]) {
    console.log(
      `${rows} rows, ${figures.mode}: longest pause ${ms(figures.longestPauseMs)} (loop delay max ${ms(figures.loopDelayMaxMs)}; idle loop afterwards ${figures.idlePauseMs.toFixed(1)} ms), main thread CPU ${figures.mainThreadCpuS.toFixed(2)} s (the probe alone: ${(figures.idleMainThreadCpuSPerS * figures.wallS).toFixed(2)} s), build ${figures.wallS.toFixed(2)} s wall / ${figures.cpuS.toFixed(2)} s CPU, RSS ${figures.rssBeforeMb.toFixed(0)} MB before, ${figures.peakRssMb.toFixed(0)} MB peak (load ${load()})`,
    );
  }
  const details = {
    rows,
    load_average: load(),
    worker_pause_ms: worker.longestPauseMs,
    worker_loop_delay_max_ms: worker.loopDelayMaxMs,
    worker_idle_pause_ms: worker.idlePauseMs,
    worker_main_thread_cpu_s: worker.mainThreadCpuS,
    probe_cpu_s: worker.idleMainThreadCpuSPerS * worker.wallS,
    in_thread_pause_ms: inThread.longestPauseMs,
    in_thread_main_thread_cpu_s: inThread.mainThreadCpuS,
    worker_wall_s: worker.wallS,
    in_thread_wall_s: inThread.wallS,
    worker_cpu_s: worker.cpuS,
    in_thread_cpu_s: inThread.cpuS,
    worker_peak_rss_mb: worker.peakRssMb,
    in_thread_peak_rss_mb: inThread.peakRssMb,
    index_mb: worker.indexMb,
  };
  report({
    name: `feed-index-build-${rows}-pause`,
    ratio: Math.max(worker.longestPauseMs, worker.loopDelayMaxMs) / TARGET_PAUSE_MS,
    target: '<= 1',
    details,
  });
  // The steadiest figure: all the main thread's CPU over a worker build with no probe running (10 ms
  // ticks) bounds any pause the build itself can cause there, whatever the machine's load.
  report({
    name: `feed-index-build-${rows}-main-thread-cpu`,
    ratio: unprobed.mainThreadCpuS / (TARGET_PAUSE_MS / 1000),
    target: '<= 1',
    details: {
      rows,
      load_average: load(),
      main_thread_cpu_s: unprobed.mainThreadCpuS,
      in_thread_main_thread_cpu_s: inThread.mainThreadCpuS,
      wall_s: unprobed.wallS,
    },
  });
  // The baseline, the build on the API's own thread: what the worker saves, judged against nothing.
  report({
    name: `feed-index-build-${rows}-in-thread-pause`,
    ratio: Math.max(inThread.longestPauseMs, inThread.loopDelayMaxMs) / TARGET_PAUSE_MS,
    details: { rows, load_average: load() },
  });
  report({
    name: `feed-index-build-${rows}-cpu`,
    ratio: worker.cpuS / inThread.cpuS,
    target: '<= 1.2',
    details: { rows, load_average: load(), worker_wall_vs_in_thread: worker.wallS / inThread.wallS },
  });
}

/** FeedService's whole rebuild from the database: keyset load on this thread, build in the worker. */
async function measureRebuild(dialect: Dialect): Promise<void> {
  const database = await benchDatabase(dialect);
  const env = { ...database.env, LOG_LEVEL: 'silent', JOBS_SCHEDULER: 'off', FEED_INDEX: 'memory' };
  const context = await createContext(loadDomainIntelConfig(env), {
    clock: new ManualClock(new Date(NOW).toISOString()),
  });
  try {
    await populateFeed(context.database.db as unknown as Kysely<unknown>, dialect, DB_ROWS, NOW);
    forgetLabels();
    await context.feed.invalidate();
    const probe = pauseProbe();
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const index = await context.feed.index();
    const wallS = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const pauses = probe.stop();
    if (index?.columns.size !== DB_ROWS) throw new Error('the feed index was not built');
    // The same probe on the idle loop for as long again (up to 10 s): what the shared machine alone causes.
    const idle = pauseProbe();
    await new Promise((resolve) => setTimeout(resolve, Math.min(10, wallS) * 1000));
    const idlePauses = idle.stop();
    report({
      name: `feed-index-rebuild-${dialect}-${DB_ROWS}-pause`,
      ratio: Math.max(pauses.longestPauseMs, pauses.loopDelayMaxMs) / TARGET_PAUSE_MS,
      target: '<= 1',
      details: {
        rows: DB_ROWS,
        load_average: load(),
        pause_ms: pauses.longestPauseMs,
        loop_delay_max_ms: pauses.loopDelayMaxMs,
        idle_pause_ms: idlePauses.longestPauseMs,
        idle_loop_delay_max_ms: idlePauses.loopDelayMaxMs,
        wall_s: wallS,
        cpu_s: (cpu.user + cpu.system) / 1e6,
      },
    });
  } finally {
    await context.close();
    await database.cleanup();
  }
}

if (process.env.FEED_BUILD_CHILD) {
  const { mode, rows } = JSON.parse(process.env.FEED_BUILD_CHILD) as { mode: Mode; rows: number };
  await measureBuild(mode, rows);
} else {
  for (const rows of SIZES) await compareBuilds(rows);
  if (DB_ROWS > 0) {
    await measureRebuild('sqlite');
    if (process.env.DATABASE_URL) await measureRebuild('postgres');
  }
}
