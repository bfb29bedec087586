/**
 * What every benchmark shares. The server under test and the bare Fastify hello-world baseline
 * each run in a process of their own (server-process.ts), the load generator `wrk` in a third
 * (wrk.ts). Ours and the baseline are measured in alternating rounds (ours, baseline, ours, …)
 * and each figure is the median over the rounds, so a burst of load from elsewhere on the
 * machine hits both sides instead of skewing one. Next to throughput, each side's CPU time per
 * request comes from the server process's own CPU counters: on a shared machine it is far
 * steadier than requests per second.
 *
 * Run flat out, a slower server also pays more of the kernel's cost of waking the load
 * generator: wrk sleeps between its answers instead of finding the next one ready (measured
 * here: a bare node:http server that spins 40 µs per request spends 14.6 µs of system time per
 * request against 8.0 µs without the spin). So each comparison also paces both sides to the same
 * request rate, half of what ours managed flat out, and reports CPU per request at that equal
 * load: the per-call cost without the wake-up penalty, as a server below saturation sees it.
 */
import { type HaltPolling, withHaltPolling } from './halt-polling.ts';
import { postgresCpuUs } from './postgres-cpu.ts';
import { type ServerProcess, type ServerProcessOptions, startServerProcess } from './server-process.ts';
import { type LoadResult, type RotatingHeader, runWrk } from './wrk.ts';

export type { ServerProcess } from './server-process.ts';
export { ensureWrk } from './wrk.ts';

export const benchSeconds = (fallback: number) => Number(process.env.BENCH_SECONDS ?? fallback);
export const benchRounds = (fallback: number) => Number(process.env.BENCH_ROUNDS ?? fallback);

/** One URL of a server process to put load on. */
export interface Target {
  server: ServerProcess<unknown>;
  /** Path and query, e.g. `/v1/bench/ping`. */
  path: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** A header that takes each of its values in turn, one request after the other (several API keys). */
  rotatingHeader?: RotatingHeader;
}

/** One side's medians over the rounds. */
export interface SideFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  /** Server CPU time (user + system) per completed request, in microseconds. */
  cpuUsPerRequest: number;
  /** The local PostgreSQL's CPU time over the rounds per request, in microseconds (when asked for and found). */
  postgresCpuUsPerRequest?: number;
}

export interface Comparison {
  /** Median over the rounds of candidate rps ÷ baseline rps. */
  ratio: number;
  /** Median over the rounds of baseline CPU per request ÷ candidate CPU per request. */
  cpuRatio: number;
  baseline: SideFigures;
  candidate: SideFigures;
  rounds: number;
  /** Both sides paced to the same rate (absent when BENCH_PACED=0). */
  equalLoad?: EqualLoadComparison;
  /** The guest halt polling both sides ran with (see halt-polling.ts). */
  haltPolling: HaltPolling;
}

export interface EqualLoadComparison {
  /** The rate both sides were paced to, requests per second. */
  targetRps: number;
  /** Median over the rounds of baseline CPU per request ÷ candidate CPU per request. */
  cpuRatio: number;
  baseline: SideFigures;
  candidate: SideFigures;
  rounds: number;
}

export interface CompareOptions {
  rounds?: number;
  /** Seconds per measurement (BENCH_SECONDS overrides). */
  seconds?: number;
  /** wrk connections (default 16). */
  connections?: number;
  /**
   * Also read the local PostgreSQL's CPU counters around each round (postgres-cpu.ts): the
   * database's share of a call, which runs on the same cores and which the server's own counters
   * leave out. On the baseline's side it is PostgreSQL's own background work during its rounds.
   */
  postgres?: boolean;
}

interface Measurement {
  load: LoadResult;
  cpuUsPerRequest: number;
  postgresCpuUsPerRequest?: number;
}

/** How one round is run. */
interface RoundOptions {
  seconds: number;
  connections: number;
  /** Each connection waits this long between its requests (paced rounds). */
  delayMs?: number;
  postgres?: boolean;
}

/** Puts load on one target for `seconds` and reads the server's CPU counters around it. */
async function measureTarget(
  target: Target,
  { seconds, connections, delayMs, postgres }: RoundOptions,
): Promise<Measurement> {
  const before = await target.server.cpu();
  const postgresBefore = postgres ? postgresCpuUs() : null;
  const load = await runWrk({
    url: target.server.url + target.path,
    headers: target.headers,
    method: target.method,
    body: target.body,
    rotatingHeader: target.rotatingHeader,
    connections,
    seconds,
    delayMs,
  });
  const postgresAfter = postgresBefore === null ? null : postgresCpuUs();
  const after = await target.server.cpu();
  if (load.errorStatuses > 0 || load.socketErrors > 0) {
    throw new Error(
      `${target.path} answered ${load.errorStatuses} error statuses and had ${load.socketErrors} socket errors under load`,
    );
  }
  if (load.requests === 0) throw new Error(`${target.path} completed no request in ${seconds} s`);
  const cpuUs = after.userUs - before.userUs + (after.systemUs - before.systemUs);
  return {
    load,
    cpuUsPerRequest: cpuUs / load.requests,
    ...(postgresBefore !== null && postgresAfter !== null
      ? { postgresCpuUsPerRequest: (postgresAfter - postgresBefore) / load.requests }
      : {}),
  };
}

/** One request before any load, so a wrong URL or a refused key fails with its own answer. */
async function preflight(target: Target): Promise<void> {
  const rotating = target.rotatingHeader;
  const response = await fetch(target.server.url + target.path, {
    method: target.method ?? 'GET',
    headers: { ...target.headers, ...(rotating ? { [rotating.name]: rotating.values[0]! } : {}) },
    body: target.body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${target.path} answered ${response.status}: ${text.slice(0, 500)}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function sideFigures(measurements: Measurement[]): SideFigures {
  const postgres = measurements.flatMap((m) =>
    m.postgresCpuUsPerRequest === undefined ? [] : [m.postgresCpuUsPerRequest],
  );
  return {
    requestsPerSecond: median(measurements.map((m) => m.load.requestsPerSecond)),
    p50Ms: median(measurements.map((m) => m.load.p50Ms)),
    p95Ms: median(measurements.map((m) => m.load.p95Ms)),
    cpuUsPerRequest: median(measurements.map((m) => m.cpuUsPerRequest)),
    ...(postgres.length === measurements.length ? { postgresCpuUsPerRequest: median(postgres) } : {}),
  };
}

/**
 * Measures candidate and baseline in alternating rounds (candidate first, after a one-second
 * warm-up of each) and returns the median ratios and each side's median figures, with guest halt
 * polling at the kernel's default for the run (halt-polling.ts).
 */
export function compareServers(baseline: Target, candidate: Target, options: CompareOptions = {}): Promise<Comparison> {
  return withHaltPolling((haltPolling) => compareInTurn(baseline, candidate, options, haltPolling));
}

async function compareInTurn(
  baseline: Target,
  candidate: Target,
  options: CompareOptions,
  haltPolling: HaltPolling,
): Promise<Comparison> {
  const rounds = options.rounds ?? benchRounds(5);
  const seconds = Number(process.env.BENCH_SECONDS ?? options.seconds ?? 3);
  const round: RoundOptions = { seconds, connections: options.connections ?? 16, postgres: options.postgres };
  await preflight(candidate);
  await preflight(baseline);
  await measureTarget(candidate, { ...round, seconds: 1 });
  await measureTarget(baseline, { ...round, seconds: 1 });
  const ours: Measurement[] = [];
  const theirs: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    ours.push(await measureTarget(candidate, round));
    theirs.push(await measureTarget(baseline, round));
  }
  const candidateFigures = sideFigures(ours);
  return {
    ratio: median(ours.map((m, i) => m.load.requestsPerSecond / theirs[i]!.load.requestsPerSecond)),
    cpuRatio: median(ours.map((m, i) => theirs[i]!.cpuUsPerRequest / m.cpuUsPerRequest)),
    baseline: sideFigures(theirs),
    candidate: candidateFigures,
    rounds,
    equalLoad:
      process.env.BENCH_PACED === '0'
        ? undefined
        : await compareAtEqualLoad(baseline, candidate, candidateFigures.requestsPerSecond / 2, round),
    haltPolling,
  };
}

/** Each paced connection waits this long between its requests; the rate is set by their number. */
const PACED_DELAY_MS = 10;

/** Both sides at the same paced rate, alternating rounds, CPU per request compared. */
async function compareAtEqualLoad(
  baseline: Target,
  candidate: Target,
  targetRps: number,
  flatOut: RoundOptions,
): Promise<EqualLoadComparison> {
  const rounds = benchRounds(3);
  const connections = Math.max(1, Math.round((targetRps * PACED_DELAY_MS) / 1000));
  const round: RoundOptions = { ...flatOut, connections, delayMs: PACED_DELAY_MS };
  const ours: Measurement[] = [];
  const theirs: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    ours.push(await measureTarget(candidate, round));
    theirs.push(await measureTarget(baseline, round));
  }
  return {
    targetRps,
    cpuRatio: median(ours.map((m, i) => theirs[i]!.cpuUsPerRequest / m.cpuUsPerRequest)),
    baseline: sideFigures(theirs),
    candidate: sideFigures(ours),
    rounds,
  };
}

/** The hello-world baseline in its own process. */
export function startHelloWorld(options: ServerProcessOptions = {}): Promise<ServerProcess<null>> {
  return startServerProcess(new URL('./hello-world.ts', import.meta.url), 'helloWorld', {}, options);
}

/**
 * Prints a comparison as two figures: `name` (throughput ratio) and `name-cpu` (hello-world's
 * CPU per request ÷ ours), both against `target` (none: shown, judged against nothing), with each
 * side's rps, p50, p95 and CPU/request;
 * and, when measured, `name-cpu-equal-load` (the same CPU ratio with both sides paced to one
 * rate). `label` prefixes the candidate's figures (`api_rps`, `feed_cpu_us_per_req`, …).
 */
export function reportComparison(options: {
  name: string;
  target: string | undefined;
  /** When the target is about CPU only: the throughput row is shown against this instead (none: judged against nothing). */
  throughputTarget?: string | undefined;
  label: string;
  comparison: Comparison;
  baselineLabel?: string;
  details?: Record<string, string | number>;
}): void {
  const { comparison, label } = options;
  const base = options.baselineLabel ?? 'hello';
  const details = {
    ...options.details,
    [`${label}_rps`]: comparison.candidate.requestsPerSecond,
    [`${base}_rps`]: comparison.baseline.requestsPerSecond,
    [`${label}_p50_ms`]: comparison.candidate.p50Ms,
    [`${base}_p50_ms`]: comparison.baseline.p50Ms,
    [`${label}_p95_ms`]: comparison.candidate.p95Ms,
    [`${base}_p95_ms`]: comparison.baseline.p95Ms,
    [`${label}_cpu_us_per_req`]: comparison.candidate.cpuUsPerRequest,
    [`${base}_cpu_us_per_req`]: comparison.baseline.cpuUsPerRequest,
    ...postgresDetails(comparison, label, base),
    rounds: comparison.rounds,
    halt_poll_ns: comparison.haltPolling.inEffect,
    machine_halt_poll_ns: comparison.haltPolling.machine,
  };
  const throughputTarget = 'throughputTarget' in options ? options.throughputTarget : options.target;
  report({ name: options.name, ratio: comparison.ratio, target: throughputTarget, details });
  report({
    name: `${options.name}-cpu`,
    ratio: comparison.cpuRatio,
    target: options.target,
    details: {
      [`${label}_cpu_us_per_req`]: comparison.candidate.cpuUsPerRequest,
      [`${base}_cpu_us_per_req`]: comparison.baseline.cpuUsPerRequest,
      extra_cpu_us_per_req: comparison.candidate.cpuUsPerRequest - comparison.baseline.cpuUsPerRequest,
      ...postgresDetails(comparison, label, base),
    },
  });
  const paced = comparison.equalLoad;
  if (!paced) return;
  // Judged against nothing: the targets are the flat-out figures above; this row shows how much
  // of their gap is the wake-up penalty (see the top of this file).
  report({
    name: `${options.name}-cpu-equal-load`,
    ratio: paced.cpuRatio,
    details: {
      target_rps: paced.targetRps,
      [`${label}_rps`]: paced.candidate.requestsPerSecond,
      [`${base}_rps`]: paced.baseline.requestsPerSecond,
      [`${label}_cpu_us_per_req`]: paced.candidate.cpuUsPerRequest,
      [`${base}_cpu_us_per_req`]: paced.baseline.cpuUsPerRequest,
      extra_cpu_us_per_req: paced.candidate.cpuUsPerRequest - paced.baseline.cpuUsPerRequest,
      ...postgresDetails(paced, label, base),
      rounds: paced.rounds,
    },
  });
}

/** Each side's PostgreSQL CPU per request, when it was read (CompareOptions.postgres). */
function postgresDetails(
  { candidate, baseline }: { candidate: SideFigures; baseline: SideFigures },
  label: string,
  base: string,
): Record<string, number> {
  if (candidate.postgresCpuUsPerRequest === undefined || baseline.postgresCpuUsPerRequest === undefined) return {};
  return {
    [`${label}_postgres_cpu_us_per_req`]: candidate.postgresCpuUsPerRequest,
    [`${base}_postgres_cpu_us_per_req`]: baseline.postgresCpuUsPerRequest,
  };
}

/**
 * Measures `candidate` against a bare hello-world (its own process, started for the occasion
 * unless one is passed) and reports both figures as reportComparison does.
 */
export async function reportAgainstHelloWorld(options: {
  name: string;
  target: string | undefined;
  label: string;
  candidate: Target;
  hello?: ServerProcess<null>;
  compare?: CompareOptions;
  details?: Record<string, string | number>;
}): Promise<Comparison> {
  const hello = options.hello ?? (await startHelloWorld());
  try {
    const comparison = await compareServers({ server: hello, path: '/' }, options.candidate, options.compare);
    reportComparison({ ...options, comparison });
    return comparison;
  } finally {
    if (!options.hello) await hello.close();
  }
}

/** Times an async function over `runs` runs (after one warm-up) and returns the median in ms. */
export async function medianMs(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Samples this process's RSS every 20 ms while `fn` runs; returns the peak in MB. */
export async function peakRssMb<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakMb: peak / 1_048_576 };
  } finally {
    clearInterval(timer);
  }
}

export interface Report {
  name: string;
  /** The headline figure: a ratio against the baseline of the same run. */
  ratio: number;
  /** e.g. ">= 0.5" or "<= 3"; none: a figure shown for understanding, judged against nothing. */
  target?: string;
  details?: Record<string, string | number>;
}

/** Prints one machine-readable line per figure (run-all collects them) plus the details. */
export function report({ name, ratio, target, details = {} }: Report): void {
  const verdict =
    target === undefined ? 'target=none INFO' : `target=${target} ${meetsTarget(ratio, target) ? 'MET' : 'MISSED'}`;
  const detailText = Object.entries(details)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? round(value) : value}`)
    .join(' ');
  console.log(`RESULT ${name} ratio=${round(ratio)} ${verdict} ${detailText}`.trim());
}

function meetsTarget(ratio: number, target: string): boolean {
  const match = /^(<=|>=|<|>)\s*([\d.]+)$/.exec(target.trim());
  if (!match) return true;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '<=':
      return ratio <= bound;
    case '>=':
      return ratio >= bound;
    case '<':
      return ratio < bound;
    default:
      return ratio > bound;
  }
}

const round = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(3));
