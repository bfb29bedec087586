/**
 * /v1/suggest end to end on the simulator with 50 ms RDAP latency on every registry, against
 * one single-name /v1/check in the same run (both over HTTP on loopback to the API in its own
 * process, fresh names every call so no cache answers). Target: a suggestion call takes at most 4× a single check.
 *
 * Measured twice: with the per-registry RDAP limits raised (what the latency target is about)
 * and with the shipped defaults (8 in flight, 10 requests per second per registry host), where
 * the registry's rate, not our latency, bounds how many names fit in SUGGEST_DEADLINE_MS.
 */
import { tempDir } from '@repo/server-kit/testing';
import { startUpstreamSim } from '@repo/upstream-sim';
import { simulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { createContext } from 'domain-intel/src/context.ts';
import { startDomainIntel } from './lib/domain-intel.ts';
import { medianMs, report } from './lib/harness.ts';

const RDAP_LATENCY_MS = 50;
const RUNS = Number(process.env.BENCH_SUGGEST_RUNS ?? 15);
const SNAPSHOT_DATE = '2026-03-10';
const RAISED_LIMITS = { RDAP_HOST_CONCURRENCY: '64', RDAP_HOST_RATE_PER_SECOND: '10000' };

interface Measurement {
  suggestMs: number;
  checkMs: number;
  meanSuggestions: number;
  deadlineRuns: number;
}

async function measure(limits: Record<string, string>): Promise<Measurement> {
  const sim = await startUpstreamSim();
  for (const server of ['verisign', 'pir', 'identity-digital', 'centralnic', 'zdns'] as const) {
    sim.rdap.setFaults(server, { latencyMs: RDAP_LATENCY_MS });
  }
  const temp = tempDir('bench-suggest');
  const env = { DATA_DIR: temp.dir, LOG_LEVEL: 'silent', JOBS_SCHEDULER: 'off', ...limits };
  let api: Awaited<ReturnType<typeof startDomainIntel>> | undefined;
  try {
    // Fresh made-up words, so neither the availability cache nor the zone answers for them.
    let counter = 0;
    const freshWord = () => {
      counter++;
      // Six base-20 consonant digits of a distinct number: distinct words, no digits or hyphens.
      let word = '';
      for (let n = counter * 7919 + 104_729; word.length < 6; n = Math.floor(n / 20)) {
        word += 'bcdfghjklmnpqrstvwxz'[n % 20];
      }
      return `${word.slice(0, 3)}${'aeiou'[counter % 5]}${word.slice(3)}`;
    };

    // A zone per tracked TLD so screening runs on real indexes: each word's exact .com is
    // delegated (and registered in the simulator), as is usual for a keyword worth suggesting
    // around. Written here into the data directory the API process then opens.
    const words = Array.from({ length: RUNS * 2 + 4 }, freshWord);
    counter = 0;
    for (const word of words) sim.world.register(`${word}.com`);
    const config = loadDomainIntelConfig({ ...env, ...(await simulatorEnv(sim)) });
    const setup = await createContext(config);
    try {
      for (const tld of config.TRACKED_TLDS) {
        const names = [...sim.world.inTld(tld)].map((domain) => domain.name).sort();
        async function* batches() {
          yield names;
        }
        const staged = await setup.snapshots.stage(tld, SNAPSHOT_DATE, batches());
        await staged.commit();
      }
      await setup.zoneIndex.refresh();
    } finally {
      await setup.close();
    }

    api = await startDomainIntel({ sim, quiet: true, env });
    const { headers } = api.info;
    const base = api.url;
    const call = async (path: string) => {
      const response = await fetch(`${base}${path}`, { headers });
      const body = (await response.json()) as { data: unknown[]; meta: Record<string, unknown> };
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };

    let suggestions = 0;
    let deadlineRuns = 0;
    const suggestMs = await medianMs(RUNS, async () => {
      const body = await call(`/v1/suggest?keyword=${freshWord()}`);
      suggestions += body.data.length;
      if (body.meta.deadline_reached) deadlineRuns++;
    });
    // The registries' rate windows are per second: let the suggestion calls' window pass.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const checkMs = await medianMs(RUNS, async () => {
      await call(`/v1/check?domain=${freshWord()}x.org`);
    });
    return { suggestMs, checkMs, meanSuggestions: suggestions / (RUNS + 1), deadlineRuns };
  } finally {
    await api?.close();
    await sim.close();
    temp.remove();
  }
}

const raised = await measure(RAISED_LIMITS);
const shipped = await measure({});
report({
  name: 'suggest-vs-check',
  ratio: raised.suggestMs / raised.checkMs,
  target: '<= 4',
  details: {
    suggest_median_ms: raised.suggestMs,
    check_median_ms: raised.checkMs,
    rdap_latency_ms: RDAP_LATENCY_MS,
    mean_suggestions: raised.meanSuggestions,
    deadline_reached_runs: raised.deadlineRuns,
    runs: RUNS + 1,
    default_limits_suggest_median_ms: shipped.suggestMs,
    default_limits_check_median_ms: shipped.checkMs,
    default_limits_mean_suggestions: shipped.meanSuggestions,
    default_limits_deadline_reached_runs: shipped.deadlineRuns,
  },
});
