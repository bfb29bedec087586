import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Clock } from '@repo/server-kit';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { loadExtraRdapServers } from '../tlds/tld-data.ts';
import { type AdaptiveRateSettings, MemoryAdaptiveRateStore } from './adaptive-rate-state.ts';
import { AdaptiveRates, type EffectiveRate, type RateChangeLog } from './adaptive-rates.ts';
import { RdapBootstrap } from './bootstrap.ts';
import { HttpRdapClient } from './client.ts';
import { HostLimits } from './host-limits.ts';
import { HostRates } from './host-rates.ts';
import { RdapHttp } from './http.ts';
import { RedisAdaptiveRateStore } from './redis-adaptive-rate-store.ts';
import type { RdapClient } from './types.ts';

export interface RdapEngine extends RdapClient {
  /** Whether some RDAP server answers for the public suffix (null: the bootstrap cannot be loaded). */
  hasServerFor(suffix: string): Promise<boolean | null>;
  /**
   * The registry host a TLD's lookups go to, and the rate background work (the purge run) may
   * use there now: its effective rate less the interactive share; null when no server is known.
   */
  registryRateOf(tld: string): Promise<RegistryRate | null>;
  /** Each RDAP host's effective rate (lowered after its 429s) against its configured one, for /metrics. */
  effectiveRates(): Promise<EffectiveRate[]>;
  /** Every TLD with an RDAP server and where it was found (for /v1/tlds). */
  allServers: RdapBootstrap['allServers'];
  close(): Promise<void>;
}

export interface RegistryRate {
  host: string;
  perSecond: number;
}

/** The RDAP client of a process, built from configuration; `close()` releases its pools and timers. */
export function createRdapEngine(
  config: Config,
  clock: Clock,
  onError: (error: unknown) => void,
  redis?: Redis,
  log?: RateChangeLog,
): RdapEngine {
  const { adaptive, limits } = createHostLimits({
    rates: new HostRates(config.RDAP_HOST_RATE_PER_SECOND, config.RDAP_HOST_RATES),
    settings: {
      decreaseFactor: config.RDAP_RATE_DECREASE_FACTOR,
      minPerSecond: config.RDAP_MIN_RATE_PER_SECOND,
      recoveryMs: config.RDAP_RATE_RECOVERY_SECONDS * 1000,
    },
    interactiveShare: config.RDAP_INTERACTIVE_SHARE,
    clock,
    onError,
    redis,
    log,
  });
  const http = new RdapHttp({
    allowInsecure: config.RDAP_ALLOW_INSECURE,
    connectTimeoutMs: config.RDAP_CONNECT_TIMEOUT_MS,
    slowAfterMs: config.RDAP_REQUEST_TIMEOUT_MS,
    maxResponseBytes: config.RDAP_MAX_RESPONSE_BYTES,
    hostConcurrency: config.RDAP_HOST_CONCURRENCY,
    limits,
    maxRetries: config.RDAP_MAX_RETRIES,
    maxRetryWaitMs: config.RDAP_RETRY_MAX_WAIT_MS,
    maxCoolDownMs: config.RDAP_MAX_COOL_DOWN_MS,
    breaker: breakerSettings(config),
    userAgent: 'domain-intel/1.0 (+RDAP client)',
  });
  const bootstrap = new RdapBootstrap({
    source: config.RDAP_BOOTSTRAP_URL,
    overrides: config.RDAP_BOOTSTRAP_OVERRIDES,
    extras: config.RDAP_EXTRA_SERVERS ?? loadExtraRdapServers().servers,
    cacheFile: bootstrapCacheFile(config),
    refreshMs: config.RDAP_BOOTSTRAP_REFRESH_HOURS * 3_600_000,
    fetchTimeoutMs: config.RDAP_REQUEST_TIMEOUT_MS * 2,
    clock,
    onError,
  });
  const client = new HttpRdapClient({
    http,
    bootstrap,
    clock,
    defaultBudgetMs: config.RDAP_LOOKUP_BUDGET_MS,
    failOverAfterMs: config.RDAP_REQUEST_TIMEOUT_MS,
    allowInsecure: config.RDAP_ALLOW_INSECURE,
  });
  return {
    lookupDomain: (name, options) => client.lookupDomain(name, options),
    hasServerFor: (suffix) => client.hasServerFor(suffix),
    async registryRateOf(tld) {
      const host = await client.registryHostOf(tld);
      return host === null ? null : { host, perSecond: await limits.backgroundPerSecond(host) };
    },
    effectiveRates: () => adaptive.effectiveRates(),
    allServers: () => bootstrap.allServers(),
    async close() {
      await Promise.all([http.close(), bootstrap.close()]);
    },
  };
}

/** The circuit breaker of every upstream server, RDAP host or WHOIS server alike (RDAP_BREAKER_*). */
export function breakerSettings(config: Config) {
  return {
    errorThresholdPercentage: config.RDAP_BREAKER_ERROR_PERCENT,
    volumeThreshold: config.RDAP_BREAKER_MIN_REQUESTS,
    resetTimeoutMs: config.RDAP_BREAKER_RESET_MS,
  };
}

/**
 * Per-host request limits at each host's effective rate (lowered after throttling, recovering
 * when quiet): in this process, or with Redis shared by every API instance and worker, each
 * registry's rate, its slowing and its pauses. RDAP hosts and WHOIS servers each get their own.
 */
export function createHostLimits(options: {
  rates: HostRates;
  settings: AdaptiveRateSettings;
  interactiveShare: number;
  clock: Clock;
  onError: (error: unknown) => void;
  redis?: Redis | undefined;
  log?: RateChangeLog | undefined;
}): { adaptive: AdaptiveRates; limits: HostLimits } {
  const { redis, settings } = options;
  const adaptive = new AdaptiveRates({
    store: redis ? new RedisAdaptiveRateStore(redis, settings) : new MemoryAdaptiveRateStore(settings),
    rates: options.rates,
    clock: options.clock,
    onError: options.onError,
    ...(options.log ? { log: options.log } : {}),
  });
  const limits = redis
    ? HostLimits.shared(redis, adaptive, options.interactiveShare)
    : HostLimits.inProcess(adaptive, options.interactiveShare);
  return { adaptive, limits };
}

/**
 * Downloaded bootstrap files are kept per source URL, so pointing the service at another
 * source (the simulator, a mirror) never serves the previous source's copy. A file source
 * needs no copy.
 */
function bootstrapCacheFile(config: Config): string | undefined {
  if (!/^https?:\/\//i.test(config.RDAP_BOOTSTRAP_URL)) return undefined;
  const sourceId = createHash('sha256').update(config.RDAP_BOOTSTRAP_URL).digest('hex').slice(0, 16);
  return path.join(config.DATA_DIR, 'rdap', `dns-${sourceId}.json`);
}
