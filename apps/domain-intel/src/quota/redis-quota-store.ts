import { type Redis, utcDate } from '@repo/server-kit';
import type { Result } from 'ioredis';
import {
  type DailyUsage,
  HISTORY_DAYS,
  type QuotaStore,
  type QuotaTake,
  type QuotaTakeRequest,
} from './quota-store.ts';

// The takes of one event-loop turn, every account's, in one script: Redis runs a script alone, so
// each counter's check, increment and expiry are one atomic step, as with a script per take.
// Per request i (1-based) KEYS[2i-1] is the day's counter and KEYS[2i] its mirror for the usage
// history; ARGV[4i-3] the limit (-1: unlimited), ARGV[4i-2] the seconds left until the next
// 00:00 UTC by the service's clock (a relative expiry, so it holds whatever Redis's own clock
// says), ARGV[4i-1] the history's expiry (HISTORY_DAYS more), ARGV[4i] the units wanted: all of
// them are taken, or as many as the limit leaves. The mirror is written in the same step, so the
// two never disagree. The requests are applied in order (two for one counter see each other's
// units). Each runs under pcall, so a request Redis refuses (a key of the wrong type) fails alone,
// as its own script did, instead of failing the turn of every other account: replies are
// {taken, used} per request, or {-1, error message}.
const TAKE_MANY = `
local function take(key, history, limit, ttl, historyTtl, units)
  local used = tonumber(redis.call('GET', key) or '0')
  if limit >= 0 then units = math.max(0, math.min(units, limit - used)) end
  if units == 0 then
    return 0, used
  end
  used = redis.call('INCRBY', key, units)
  redis.call('EXPIRE', key, ttl)
  redis.call('SET', history, used, 'EX', historyTtl)
  return units, used
end

local replies = {}
for i = 1, #KEYS / 2 do
  local ok, taken, used = pcall(take, KEYS[2 * i - 1], KEYS[2 * i], tonumber(ARGV[4 * i - 3]), ARGV[4 * i - 2],
    ARGV[4 * i - 1], tonumber(ARGV[4 * i]))
  if ok then
    replies[2 * i - 1] = taken
    replies[2 * i] = used
  else
    replies[2 * i - 1] = -1
    replies[2 * i] = type(taken) == 'table' and tostring(taken.err) or tostring(taken)
  end
end
return replies
`;

const REFUND = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then
  used = redis.call('DECR', KEYS[1])
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('SET', KEYS[2], used, 'KEEPTTL') end
  return used
end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** KEYS and ARGV as TAKE_MANY says; replies two entries per request. */
    quotaTakeMany(
      numberOfKeys: number,
      ...keysThenArgs: Array<string | number>
    ): Result<Array<number | string>, Context>;
    quotaRefund(key: string, historyKey: string): Result<number, Context>;
  }
}

/** Counters in Redis for many API instances: one key per account and day, gone after midnight. */
export class RedisQuotaStore implements QuotaStore {
  constructor(private readonly redis: Redis) {
    // No fixed numberOfKeys: each call says how many (two per request).
    redis.defineCommand('quotaTakeMany', { lua: TAKE_MANY });
    redis.defineCommand('quotaRefund', { numberOfKeys: 2, lua: REFUND });
  }

  /**
   * One script for all the requests (one command, whatever the number of accounts). All keys go
   * to one Redis: the project runs a single Redis (not Cluster, where keys of different accounts
   * would sit in different slots and one script could not touch them all).
   */
  async takeMany(requests: readonly QuotaTakeRequest[]): Promise<Array<PromiseSettledResult<QuotaTake>>> {
    const keys: string[] = [];
    const args: number[] = [];
    for (const { accountId, day, limit, units, secondsToReset } of requests) {
      keys.push(quotaKey(accountId, day), historyKey(accountId, day));
      args.push(limit ?? -1, secondsToReset, secondsToReset + (HISTORY_DAYS - 1) * 86_400, units);
    }
    const replies = await this.redis.quotaTakeMany(keys.length, ...keys, ...args);
    return requests.map((_, i) => {
      const taken = replies[2 * i] as number;
      const usedOrError = replies[2 * i + 1]!;
      return taken < 0
        ? { status: 'rejected', reason: new Error(`The quota script failed for this counter: ${usedOrError}`) }
        : { status: 'fulfilled', value: { taken, used: usedOrError as number } };
    });
  }

  async refund(accountId: string, day: string): Promise<void> {
    await this.redis.quotaRefund(quotaKey(accountId, day), historyKey(accountId, day));
  }

  async used(accountId: string, day: string): Promise<number> {
    return Number((await this.redis.get(quotaKey(accountId, day))) ?? 0);
  }

  async history(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const days = daysBetween(fromDay, toDay);
    if (days.length === 0) return [];
    const counts = await this.redis.mget(days.map((day) => historyKey(accountId, day)));
    return days.flatMap((day, i) => (counts[i] == null ? [] : [{ day, used: Number(counts[i]) }]));
  }
}

const quotaKey = (accountId: string, day: string) => `quota:${accountId}:${day}`;
const historyKey = (accountId: string, day: string) => `quota-history:${accountId}:${day}`;

/** Every UTC day from `fromDay` to `toDay`, inclusive, at most HISTORY_DAYS of them (the newest). */
function daysBetween(fromDay: string, toDay: string): string[] {
  const first = Math.max(
    Date.parse(`${fromDay}T00:00:00Z`),
    Date.parse(`${toDay}T00:00:00Z`) - (HISTORY_DAYS - 1) * 86_400_000,
  );
  const last = Date.parse(`${toDay}T00:00:00Z`);
  const days: string[] = [];
  for (let time = first; time <= last; time += 86_400_000) days.push(utcDate(time));
  return days;
}
