import type { Clock } from '@repo/server-kit';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { AdaptiveRates, RateChangeLog } from '../rdap/adaptive-rates.ts';
import { breakerSettings, createHostLimits, createRdapEngine, type RdapEngine } from '../rdap/engine.ts';
import type { HostLimits } from '../rdap/host-limits.ts';
import { HostRates } from '../rdap/host-rates.ts';
import { loadRootZone } from '../tlds/tld-data.ts';
import { serverKey, WhoisTransport } from '../whois/transport.ts';
import { WhoisClient } from '../whois/whois-client.ts';
import { RegistryClient } from './registry-client.ts';
import { WhoisDirectory } from './whois-directory.ts';

/** The registry engine: RDAP where a TLD has it, port-43 WHOIS where it has not, behind one client. */
export interface RegistryEngine extends RdapEngine {
  /** Where a TLD's names are asked over WHOIS (IANA's referral or WHOIS_SERVERS), for /v1/tlds. */
  whoisServers: WhoisDirectory;
}

/** The registry client of a process, built from configuration; `close()` releases pools, sockets and timers. */
export function createRegistryEngine(
  config: Config,
  clock: Clock,
  onError: (error: unknown) => void,
  redis?: Redis,
  log?: RateChangeLog,
): RegistryEngine {
  const rdap = createRdapEngine(config, clock, onError, redis, log);
  const { transport, adaptive, limits } = createWhoisTransport(config, clock, onError, redis, log);
  const ianaWhois = new Map<string, string>();
  for (const entry of loadRootZone().entries) if (entry.whois) ianaWhois.set(entry.tld, entry.whois);
  const whoisServers = new WhoisDirectory(ianaWhois, config.WHOIS_SERVERS);
  const whois = new WhoisClient({ transport, clock, defaultBudgetMs: config.RDAP_LOOKUP_BUDGET_MS });
  const client = new RegistryClient({ rdap, whois, whoisServers });
  return {
    ...rdap,
    whoisServers,
    lookupDomain: (name, options) => client.lookupDomain(name, options),
    hasServerFor: (suffix) => client.hasServerFor(suffix),
    async registryRateOf(tld) {
      const viaRdap = await rdap.registryRateOf(tld);
      if (viaRdap) return viaRdap;
      const target = whoisServers.targetFor(tld);
      if (!target) return null;
      const host = serverKey(target.address);
      return { host, perSecond: await limits.backgroundPerSecond(host) };
    },
    async effectiveRates() {
      return [...(await rdap.effectiveRates()), ...(await adaptive.effectiveRates())];
    },
    async close() {
      await Promise.all([rdap.close(), transport.close()]);
    },
  };
}

/** The port-43 transport of a process from configuration, with its per-server limits (shared through Redis when given). */
export function createWhoisTransport(
  config: Config,
  clock: Clock,
  onError: (error: unknown) => void,
  redis?: Redis,
  log?: RateChangeLog,
): { transport: WhoisTransport; adaptive: AdaptiveRates; limits: HostLimits } {
  const { adaptive, limits } = createHostLimits({
    rates: new HostRates(config.WHOIS_HOST_RATE_PER_SECOND, config.WHOIS_HOST_RATES),
    settings: {
      decreaseFactor: config.RDAP_RATE_DECREASE_FACTOR,
      // A throttled WHOIS server is paused (WHOIS_THROTTLE_PAUSE_MS) and then taken at one query a second at most.
      minPerSecond: Math.min(1, config.WHOIS_HOST_RATE_PER_SECOND),
      recoveryMs: config.RDAP_RATE_RECOVERY_SECONDS * 1000,
    },
    interactiveShare: config.RDAP_INTERACTIVE_SHARE,
    clock,
    onError,
    redis,
    log,
  });
  const transport = new WhoisTransport({
    allowInsecure: config.RDAP_ALLOW_INSECURE,
    connectTimeoutMs: config.WHOIS_CONNECT_TIMEOUT_MS,
    slowAfterMs: config.WHOIS_ANSWER_TIMEOUT_MS,
    maxAnswerBytes: config.WHOIS_MAX_ANSWER_BYTES,
    hostConcurrency: config.WHOIS_HOST_CONCURRENCY,
    limits,
    throttlePauseMs: config.WHOIS_THROTTLE_PAUSE_MS,
    breaker: breakerSettings(config),
  });
  return { transport, adaptive, limits };
}
