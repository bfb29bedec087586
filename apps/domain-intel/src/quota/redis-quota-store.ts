import { type Redis, utcDate } from '@repo/server-kit';
import type { Result } from 'ioredis';
import { type DailyUsage, HISTORY_DAYS, type QuotaStore, type QuotaTake } from './quota-store.ts';

// Check, increment and set the expiry in one atomic step: Redis runs a script alone.
// ARGV[1] is the limit (-1: unlimited), ARGV[2] the seconds left until the next 00:00 UTC
// by the service's clock (a relative expiry, so it holds whatever Redis's own clock says),
// ARGV[4] the units wanted: all of them are taken, or as many as the limit leaves.
// KEYS[2] mirrors the day's count for the usage history and outlives the counter by
// HISTORY_DAYS (ARGV[3] seconds); written in the same script, so the two never disagree.
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
local take = tonumber(ARGV[4])
if limit >= 0 then take = math.max(0, math.min(take, limit - used)) end
if take == 0 then
  return {0, used}
end
used = redis.call('INCRBY', KEYS[1], take)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], used, 'EX', ARGV[3])
return {take, used}
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
    quotaTake(
      key: string,
      historyKey: string,
      limit: number,
      ttlSeconds: number,
      historyTtlSeconds: number,
      units: number,
    ): Result<[number, number], Context>;
    quotaRefund(key: string, historyKey: string): Result<number, Context>;
  }
}

/** Counters in Redis for many API instances: one key per account and day, gone after midnight. */
export class RedisQuotaStore implements QuotaStore {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('quotaTake', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('quotaRefund', { numberOfKeys: 2, lua: REFUND });
  }

  async take(
    accountId: string,
    day: string,
    limit: number | null,
    units: number,
    secondsToReset: number,
  ): Promise<QuotaTake> {
    const [taken, used] = await this.redis.quotaTake(
      quotaKey(accountId, day),
      historyKey(accountId, day),
      limit ?? -1,
      secondsToReset,
      secondsToReset + (HISTORY_DAYS - 1) * 86_400,
      units,
    );
    return { taken, used };
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
