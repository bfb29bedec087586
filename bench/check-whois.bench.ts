/**
 * A WHOIS-backed availability check against an RDAP-backed one: /v1/check of a name under a
 * TLD answered by port-43 WHOIS (.jp, JPRS's format, ISO-2022-JP decoding included) against one
 * answered by RDAP (.com), nothing cached (every call asks the registry), on the same server in
 * its own process, the simulated registries in the benchmark's. Target (issue 30): a WHOIS-backed
 * check costs at most 2× an RDAP-backed one in server CPU, i.e. the `-cpu` ratio >= 0.5.
 */

import { startUpstreamSim } from '@repo/upstream-sim';
import { startDomainIntel } from './lib/domain-intel.ts';
import { compareServers, reportComparison } from './lib/harness.ts';

const sim = await startUpstreamSim();
sim.world.register('benchmark-name.com');
sim.world.register('benchmark-name.jp');
const api = await startDomainIntel({
  sim,
  env: {
    // Every call asks the registry: the cost measured is the lookup's, not the cache's.
    CHECK_CACHE_TTL_REGISTERED_S: '0',
    CHECK_CACHE_TTL_AVAILABLE_S: '0',
    CHECK_CACHE_TTL_UNKNOWN_S: '0',
    // The politeness limits that protect real registries would measure the limiter's waits instead.
    RDAP_HOST_RATE_PER_SECOND: '10000',
    RDAP_HOST_CONCURRENCY: '32',
    WHOIS_HOST_RATE_PER_SECOND: '1000',
    WHOIS_HOST_CONCURRENCY: '32',
  },
});
const { headers } = api.info;
try {
  for (const name of ['benchmark-name.com', 'benchmark-name.jp']) {
    const answer = (await (await fetch(`${api.url}/v1/check?domain=${name}`, { headers })).json()) as {
      data: { status: string; source: string }[];
    };
    const [row] = answer.data;
    if (row?.status !== 'registered' || row.source !== (name.endsWith('.jp') ? 'whois' : 'rdap')) {
      throw new Error(`warm-up of ${name} answered ${JSON.stringify(answer)}`);
    }
  }
  const whoisBefore = sim.whois.requestCount('jprs');
  const comparison = await compareServers(
    { server: api, path: '/v1/check?domain=benchmark-name.com', headers },
    { server: api, path: '/v1/check?domain=benchmark-name.jp', headers },
  );
  if (sim.whois.requestCount('jprs') === whoisBefore) throw new Error('the WHOIS side was not asked');
  reportComparison({
    name: 'check-whois-vs-rdap',
    // The target is the server's CPU per check; throughput also waits on the simulated registries.
    target: '>= 0.5',
    throughputTarget: undefined,
    label: 'whois_check',
    baselineLabel: 'rdap_check',
    comparison,
  });
} finally {
  await api.close();
  await sim.close();
}
