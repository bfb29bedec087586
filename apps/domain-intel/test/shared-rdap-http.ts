import type { Redis } from 'ioredis';
import type { HostRates } from '../src/rdap/host-rates.ts';
import { RdapHttp } from '../src/rdap/http.ts';
import { SharedHostLimits } from '../src/rdap/shared-host-limits.ts';

/**
 * An RdapHttp as an API instance or worker builds it, its per-host limits shared through
 * `redis`: the shared-limit tests run several of these, in this process and in child processes.
 */
export function sharedRdapHttp(
  redis: Redis,
  rates: HostRates,
  { maxRetries, maxRetryWaitMs }: { maxRetries: number; maxRetryWaitMs: number },
): RdapHttp {
  return new RdapHttp({
    allowInsecure: true,
    connectTimeoutMs: 5_000,
    requestTimeoutMs: 10_000,
    maxResponseBytes: 1 << 20,
    hostConcurrency: 8,
    hostRates: rates,
    maxRetries,
    maxRetryWaitMs,
    maxCoolDownMs: 60_000,
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 1000, resetTimeoutMs: 30_000 },
    userAgent: 'shared-limit-test',
    shared: new SharedHostLimits(redis, { rates }),
  });
}
