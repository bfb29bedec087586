import type { Redis } from '@repo/server-kit';
import type { Result } from 'ioredis';
import type { QuotaDecision, QuotaStore } from './quota-store.ts';

// Check, increment and set the expiry in one atomic step: Redis runs a script alone.
// ARGV[1] is the limit (-1: unlimited), ARGV[2] the seconds left until the next 00:00 UTC
// by the service's clock (a relative expiry, so it holds whatever Redis's own clock says).
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if limit >= 0 and used >= limit then
  return {0, used}
end
used = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {1, used}
`;

const REFUND = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    quotaConsume(key: string, limit: number, ttlSeconds: number): Result<[number, number], Context>;
    quotaRefund(key: string): Result<number, Context>;
  }
}

/** Counters in Redis for many API instances: one key per account and day, gone after midnight. */
export class RedisQuotaStore implements QuotaStore {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('quotaConsume', { numberOfKeys: 1, lua: CONSUME });
    redis.defineCommand('quotaRefund', { numberOfKeys: 1, lua: REFUND });
  }

  async consume(accountId: string, day: string, limit: number | null, secondsToReset: number): Promise<QuotaDecision> {
    const [allowed, used] = await this.redis.quotaConsume(quotaKey(accountId, day), limit ?? -1, secondsToReset);
    return { allowed: allowed === 1, used };
  }

  async refund(accountId: string, day: string): Promise<void> {
    await this.redis.quotaRefund(quotaKey(accountId, day));
  }

  async used(accountId: string, day: string): Promise<number> {
    return Number((await this.redis.get(quotaKey(accountId, day))) ?? 0);
  }
}

const quotaKey = (accountId: string, day: string) => `quota:${accountId}:${day}`;
