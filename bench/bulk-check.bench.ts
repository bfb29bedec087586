/**
 * A 10,000-name bulk availability job against single /v1/check calls: the server's CPU per name.
 * The API runs in its own process (its jobs in-process, as on the embedded default), the
 * simulated registries in this one; nothing is cached, so every name of both sides asks the
 * registry. The single side is 2,000 calls of one fresh name each (16 at a time); the bulk side
 * is everything one job costs the server: the POST (parsing, the quota take, 10,000 item rows),
 * the job's lookups and item writes, the completion event, and the progress polls while it runs.
 * Target (issue 32): a bulk job's CPU per name at most 1.5× a single check's, i.e. ratio <= 1.5.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { startUpstreamSim } from '@repo/upstream-sim';
import { startDomainIntel } from './lib/domain-intel.ts';
import { report } from './lib/harness.ts';

const SINGLE_CALLS = Number(process.env.BENCH_SINGLE_CALLS ?? 2_000);
const CONCURRENCY = 16;
const BULK_NAMES = 10_000;

const sim = await startUpstreamSim();
const api = await startDomainIntel({
  sim,
  env: {
    // Every lookup asks the registry: the cost measured is the check's, not the cache's.
    CHECK_CACHE_TTL_REGISTERED_S: '0',
    CHECK_CACHE_TTL_AVAILABLE_S: '0',
    CHECK_CACHE_TTL_UNKNOWN_S: '0',
    // The politeness limits that protect real registries would measure the limiter's waits instead.
    RDAP_HOST_RATE_PER_SECOND: '10000',
    RDAP_HOST_CONCURRENCY: '32',
    // The bulk job is worked by the server's own scheduler (every 5 s), as on the embedded default.
    JOBS_SCHEDULER: 'in-process',
  },
});
const { headers } = api.info;
const cpuUs = async () => {
  const { userUs, systemUs } = await api.cpu();
  return userUs + systemUs;
};

try {
  // Warm-up: the first calls compile the paths both sides take.
  await singles('warm', 200);
  const singleStart = await cpuUs();
  await singles('single', SINGLE_CALLS);
  const singleUsPerCall = ((await cpuUs()) - singleStart) / SINGLE_CALLS;

  const names = Array.from({ length: BULK_NAMES }, (_, i) => `bulk-bench-${process.pid}-${i}.com`);
  const bulkStart = await cpuUs();
  const started = Date.now();
  const submitted = await fetch(`${api.url}/account/bulk-checks`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ domains: names }),
  });
  if (submitted.status !== 202) throw new Error(`the job was refused: ${await submitted.text()}`);
  const { id } = ((await submitted.json()) as { data: { id: string } }).data;
  let polls = 0;
  for (;;) {
    await sleep(500);
    polls++;
    const status = (await (await fetch(`${api.url}/account/bulk-checks/${id}`, { headers })).json()) as {
      data: { status: string; done: number };
    };
    if (status.data.status === 'done') break;
    if (status.data.status !== 'queued' && status.data.status !== 'running') {
      throw new Error(`the job ended ${status.data.status}`);
    }
  }
  const bulkUsPerName = ((await cpuUs()) - bulkStart) / BULK_NAMES;
  const seconds = (Date.now() - started) / 1000;

  const results = await (await fetch(`${api.url}/account/bulk-checks/${id}/results`, { headers })).text();
  const items = results.trim().split('\n');
  if (items.length !== BULK_NAMES || items.some((line) => !line.includes('"status":"available"'))) {
    throw new Error(`the job's results are not ${BULK_NAMES} available names`);
  }
  report({
    name: 'bulk-check-cpu-per-name',
    ratio: bulkUsPerName / singleUsPerCall,
    target: '<= 1.5',
    details: {
      bulk_cpu_us_per_name: bulkUsPerName,
      single_check_cpu_us_per_call: singleUsPerCall,
      bulk_names: BULK_NAMES,
      bulk_seconds: seconds,
      progress_polls: polls,
      single_calls: SINGLE_CALLS,
    },
  });
} finally {
  await api.close();
  await sim.close();
}

/** `count` /v1/check calls of one fresh (never cached) name each, CONCURRENCY at a time. */
async function singles(label: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const name = `${label}-${process.pid}-${next++}.com`;
      const response = await fetch(`${api.url}/v1/check?domain=${name}`, { headers });
      const body = (await response.json()) as { data?: { status: string }[] };
      if (response.status !== 200 || body.data?.[0]?.status !== 'available') {
        throw new Error(`/v1/check of ${name} answered ${response.status} ${JSON.stringify(body)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
