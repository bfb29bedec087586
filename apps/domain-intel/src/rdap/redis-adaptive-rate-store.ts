import type { Redis, Result } from 'ioredis';
import type { AdaptedRate, AdaptiveRateSettings, AdaptiveRateStore, RateEvent } from './adaptive-rate-state.ts';

// nextAdaptedRate (adaptive-rate-state.ts) in one atomic step, so two processes meeting 429s at
// once lower the shared rate once per event, and one of them (the one whose call changed it)
// logs the change. KEYS[1]: a hash, host → "rate generation quietSince" (written only when it
// changes). ARGV: host, now, configured rate, the generation a 429's request saw (-1: no 429),
// decrease factor, floor, recovery ms. Returns the stored rate before, then the new state.
const APPLY = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local now = tonumber(ARGV[2])
local configured = tonumber(ARGV[3])
local seen = tonumber(ARGV[4])
local stored = raw or (configured .. ' 0 0')
local a, b, c = string.match(stored, '^(%S+) (%S+) (%S+)$')
local rate, generation, quietSince = tonumber(a), tonumber(b), tonumber(c)
local before = rate
rate = math.min(rate, configured)
if rate < configured then
  local recoveryMs = tonumber(ARGV[7])
  local steps = math.floor((now - quietSince) / recoveryMs)
  if steps > 0 then
    local step = math.max(1, math.floor(configured / 10 + 0.5))
    rate = math.min(configured, rate + steps * step)
    quietSince = quietSince + steps * recoveryMs
  end
end
if seen >= 0 then
  if seen == generation then
    rate = math.max(math.min(tonumber(ARGV[6]), configured), math.floor(rate * tonumber(ARGV[5])))
    generation = generation + 1
  end
  quietSince = now
end
local state = string.format('%d %d %d', rate, generation, quietSince)
if state ~= stored then redis.call('HSET', KEYS[1], ARGV[1], state) end
return {before, rate, generation, quietSince}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    rdapAdaptRate(
      key: string,
      host: string,
      now: number,
      configured: number,
      seenGeneration: number,
      decreaseFactor: number,
      minPerSecond: number,
      recoveryMs: number,
    ): Result<[number, number, number, number], Context>;
  }
}

/** Every process's adapted rates in one Redis hash: one shared rate per host, not one per process. */
export class RedisAdaptiveRateStore implements AdaptiveRateStore {
  readonly #key: string;

  constructor(
    private readonly redis: Redis,
    private readonly settings: AdaptiveRateSettings,
    key = 'rdap-adapted-rates',
  ) {
    this.#key = key;
    redis.defineCommand('rdapAdaptRate', { numberOfKeys: 1, lua: APPLY });
  }

  async apply(host: string, event: RateEvent): Promise<{ before: number; after: AdaptedRate }> {
    const { decreaseFactor, minPerSecond, recoveryMs } = this.settings;
    const [before, perSecond, generation, quietSince] = await this.redis.rdapAdaptRate(
      this.#key,
      host,
      Math.floor(event.now),
      event.configuredPerSecond,
      event.throttledAtGeneration ?? -1,
      decreaseFactor,
      minPerSecond,
      recoveryMs,
    );
    return { before, after: { perSecond, generation, quietSince } };
  }

  async hosts(): Promise<string[]> {
    return this.redis.hkeys(this.#key);
  }
}
