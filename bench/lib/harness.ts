/**
 * What every benchmark shares: load generation with autocannon, a bare Fastify hello-world
 * baseline started the same way as the service, and one output format. Figures are ratios
 * against a baseline measured in the same run, so a busy machine moves both sides together.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify from 'fastify';

export interface LoadOptions {
  /** Full URL to hit. */
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  /** Seconds per measurement. BENCH_SECONDS overrides (quick runs). */
  duration?: number;
  method?: 'GET' | 'POST';
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export const benchSeconds = (fallback: number) => Number(process.env.BENCH_SECONDS ?? fallback);

/** Runs autocannon against one URL after a short warm-up; fails loudly on non-2xx answers. */
export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  const common = {
    url: options.url,
    headers: options.headers,
    connections: options.connections ?? 20,
    method: options.method ?? 'GET',
    body: options.body,
  };
  await autocannon({ ...common, duration: 1 });
  const result = await autocannon({ ...common, duration: options.duration ?? benchSeconds(5) });
  const percentile = (name: string) => Number((result.latency as unknown as Record<string, number>)[name] ?? NaN);
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: percentile('p50'),
    p95Ms: percentile('p97_5') /* autocannon reports p97.5, the closest to p95 it keeps */,
    p99Ms: percentile('p99'),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export interface Comparison {
  /** Median over the rounds of candidate rps / baseline rps. */
  ratio: number;
  baseline: LoadResult;
  candidate: LoadResult;
}

/**
 * Measures baseline and candidate in alternating short rounds and takes the median ratio, so a
 * burst of load from elsewhere on the machine hits both sides instead of skewing one.
 */
export async function compareLoad(baseline: LoadOptions, candidate: LoadOptions, rounds = 3): Promise<Comparison> {
  const duration = baseline.duration ?? benchSeconds(4);
  const ratios: number[] = [];
  let last: { baseline: LoadResult; candidate: LoadResult } | undefined;
  for (let round = 0; round < rounds; round++) {
    const base = await measureLoad({ ...baseline, duration });
    const cand = await measureLoad({ ...candidate, duration });
    if (cand.non2xx > 0 || cand.errors > 0) {
      throw new Error(`${candidate.url} answered ${cand.non2xx} non-2xx responses and ${cand.errors} errors`);
    }
    ratios.push(cand.requestsPerSecond / base.requestsPerSecond);
    last = { baseline: base, candidate: cand };
  }
  ratios.sort((a, b) => a - b);
  return { ratio: ratios[Math.floor(ratios.length / 2)]!, ...last! };
}

/**
 * Measures `candidate` against a bare hello-world started for the occasion (alternating rounds,
 * as compareLoad) and reports the ratio with both sides' throughput and p95 latency.
 * `label` prefixes the candidate's figures (`api_rps`, `check_p95_ms`, …).
 */
export async function reportAgainstHelloWorld(options: {
  name: string;
  target: string;
  label: string;
  candidate: LoadOptions;
}): Promise<Comparison> {
  const hello = await startHelloWorld();
  try {
    const comparison = await compareLoad({ url: hello.url }, options.candidate);
    report({
      name: options.name,
      ratio: comparison.ratio,
      target: options.target,
      details: {
        [`${options.label}_rps`]: comparison.candidate.requestsPerSecond,
        hello_rps: comparison.baseline.requestsPerSecond,
        [`${options.label}_p95_ms`]: comparison.candidate.p95Ms,
        hello_p95_ms: comparison.baseline.p95Ms,
      },
    });
    return comparison;
  } finally {
    await hello.close();
  }
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The baseline: a bare Fastify hello-world on loopback, no logging, like the services run. */
export async function startHelloWorld(): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, close: () => app.close() };
}

/** Listens a prepared Fastify instance on loopback and returns its base URL. */
export async function listenOnLoopback(app: {
  listen(options: { host: string; port: number }): Promise<string>;
}): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
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
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
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
  /** e.g. ">= 0.5" or "<= 3". */
  target: string;
  details?: Record<string, string | number>;
}

/** Prints one machine-readable line per figure (run-all collects them) plus the details. */
export function report({ name, ratio, target, details = {} }: Report): void {
  const met = meetsTarget(ratio, target);
  const detailText = Object.entries(details)
    .map(([key, value]) => `${key}=${typeof value === 'number' ? round(value) : value}`)
    .join(' ');
  console.log(`RESULT ${name} ratio=${round(ratio)} target=${target} ${met ? 'MET' : 'MISSED'} ${detailText}`.trim());
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

/** Closes servers even when a benchmark throws. */
export async function withServers<T>(servers: RunningServer[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

export { type AddressInfo, once };
