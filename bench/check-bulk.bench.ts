/**
 * Bulk availability: a 30-name /v1/check across 3 TLDs (3 registry servers) against a
 * single-name check, with every simulated registry answering after 50 ms. Names are fresh
 * each run (no cache). The simulator does not throttle, so the per-server request rate is
 * lifted here; the per-server concurrency stays at its default (8). Target: ratio <= 3.
 * The API runs in its own process; this process holds the simulator and times the calls.
 */
import { startUpstreamSim } from '@repo/upstream-sim';
import { startDomainIntel } from './lib/domain-intel.ts';
import { medianMs, report } from './lib/harness.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const LATENCY_MS = 50;

const sim = await startUpstreamSim();
for (const registry of ['verisign', 'pir', 'centralnic'] as const)
  sim.rdap.setFaults(registry, { latencyMs: LATENCY_MS });
// Quiet: this figure is about waiting on registries, not about logging.
const api = await startDomainIntel({ sim, quiet: true, env: { RDAP_HOST_RATE_PER_SECOND: '10000' } });
const { url: base } = api;
const { headers } = api.info;

let run = 0;
async function check(query: string, expectedRows: number) {
  const response = await fetch(`${base}/v1/check?${query}`, { headers });
  const body = (await response.json()) as { data: { status: string }[] };
  if (
    response.status !== 200 ||
    body.data.length !== expectedRows ||
    body.data.some((row) => row.status !== 'available')
  ) {
    throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

try {
  const single = await medianMs(RUNS, () => check(`domain=single-${run++}.com`, 1));
  const bulk = await medianMs(RUNS, () => {
    const names = ['com', 'org', 'xyz'].flatMap((tld) =>
      Array.from({ length: 10 }, (_, i) => `bulk-${run}-${i}.${tld}`),
    );
    run++;
    return check(`domains=${names.join(',')}`, 30);
  });
  report({
    name: 'check-bulk-30-vs-single',
    ratio: bulk / single,
    target: '<= 3',
    details: { single_ms: single, bulk_ms: bulk, upstream_latency_ms: LATENCY_MS, runs: RUNS },
  });
} finally {
  await api.close();
  await sim.close();
}
