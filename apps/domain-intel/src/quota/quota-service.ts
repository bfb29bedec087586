import { type AppError, type Clock, nextUtcMidnight, startOfUtcDay, utcDate } from '@repo/server-kit';
import type { Caller } from '../accounts/caller.ts';
import { appError } from '../error-catalogue.ts';
import { CoalescedTakes } from './coalesced-takes.ts';
import { type DailyUsage, HISTORY_DAYS, type QuotaStore } from './quota-store.ts';
import type { UnansweredTakes } from './unanswered-takes.ts';

const DAY_MS = 86_400_000;

export interface QuotaStatus {
  allowed: boolean;
  /** null: unlimited. */
  limit: number | null;
  used: number;
  remaining: number | null;
  /** Next 00:00 UTC, epoch ms. */
  resetsAt: number;
  /** The call was a proxy's re-send of one counted before (see QuotaService.consume): not counted again. */
  repeated?: true;
}

/**
 * The fixed daily window: every account's counter starts at 0 at 00:00 UTC. Which calls count
 * is the HTTP layer's decision (see http/authentication.ts); this only counts.
 */
export class QuotaService {
  readonly #takes: CoalescedTakes;

  constructor(
    private readonly store: QuotaStore,
    private readonly clock: Clock,
  ) {
    this.#takes = new CoalescedTakes(store);
  }

  /** Takes whose reply was lost and which are given back once found counted (Redis only). */
  get unanswered(): UnansweredTakes | undefined {
    return this.store.unanswered;
  }

  /**
   * Takes one unit for a call (calls of the same turn share one store call: see CoalescedTakes);
   * with the trusted proxy's `requestId`, at most one per id (a re-sent call is not counted twice).
   */
  consume(caller: Caller, requestId?: string): Promise<QuotaStatus> {
    const now = this.clock.now();
    const limit = caller.plan.dailyCallLimit;
    const resetsAt = nextUtcMidnight(now);
    const secondsToReset = Math.max(1, Math.ceil((resetsAt - now) / 1000));
    return this.#takes
      .takeOne(caller.accountId, utcDate(now), limit, secondsToReset, requestId)
      .then(({ allowed, used, repeated }) => ({
        ...(repeated ? { repeated } : {}),
        allowed,
        limit,
        used,
        remaining: limit === null ? null : Math.max(0, limit - used),
        resetsAt,
      }));
  }

  /**
   * Takes `units` calls at once, all or none (a bulk job of that many names): `allowed` false
   * when they do not all fit in what is left today, and then nothing is counted.
   */
  async consumeWhole(caller: Caller, units: number): Promise<QuotaStatus> {
    const now = this.clock.now();
    const limit = caller.plan.dailyCallLimit;
    const resetsAt = nextUtcMidnight(now);
    const secondsToReset = Math.max(1, Math.ceil((resetsAt - now) / 1000));
    const { taken, used } = await this.store.takeWhole({
      accountId: caller.accountId,
      day: utcDate(now),
      limit,
      units,
      secondsToReset,
    });
    return {
      allowed: taken === units,
      limit,
      used,
      remaining: limit === null ? null : Math.max(0, limit - used),
      resetsAt,
    };
  }

  async status(caller: Caller): Promise<QuotaStatus> {
    const now = this.clock.now();
    const limit = caller.plan.dailyCallLimit;
    const used = await this.store.used(caller.accountId, utcDate(now));
    const remaining = limit === null ? null : Math.max(0, limit - used);
    return { allowed: remaining !== 0, limit, used, remaining, resetsAt: nextUtcMidnight(now) };
  }

  /** Calls counted on each of the last `days` UTC days, today last, days without calls as 0. */
  async history(accountId: string, days: number): Promise<DailyUsage[]> {
    const count = Math.min(Math.max(1, Math.floor(days)), HISTORY_DAYS);
    const today = startOfUtcDay(this.clock.now());
    const wanted = Array.from({ length: count }, (_, i) => utcDate(today - (count - 1 - i) * DAY_MS));
    const stored = await this.store.history(accountId, wanted[0]!, wanted[count - 1]!);
    const used = new Map(stored.map((entry) => [entry.day, entry.used]));
    return wanted.map((day) => ({ day, used: used.get(day) ?? 0 }));
  }

  /** Returns the unit of a call that failed on our side. `day` is the day it was taken on. */
  async refund(caller: Caller, takenAt: number): Promise<void> {
    await this.store.refund(caller.accountId, utcDate(takenAt));
  }

  /** Whole seconds to the next 00:00 UTC, at least 1 (23:59:59 → 1). */
  retryAfterSeconds(): number {
    const now = this.clock.now();
    return Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
  }

  quotaExceeded(status: QuotaStatus): AppError {
    const retryAfter = this.retryAfterSeconds();
    return appError(
      'quota_exceeded',
      `The daily limit of ${status.limit} calls of your plan is used up. It resets at ${new Date(status.resetsAt).toISOString()}.`,
      {
        headers: { 'Retry-After': String(retryAfter) },
        details: { limit: status.limit, resets_at: new Date(status.resetsAt).toISOString() },
      },
    );
  }
}

/** X-RateLimit-Reset is the reset time in Unix seconds, as GitHub and others send it. */
export function rateLimitHeaders(status: QuotaStatus): Record<string, string> {
  // Lowercase, as Fastify keeps them (see http/api-headers.ts); sent on every keyed call.
  return {
    'x-ratelimit-limit': status.limit === null ? 'unlimited' : String(status.limit),
    'x-ratelimit-remaining': status.remaining === null ? 'unlimited' : String(status.remaining),
    'x-ratelimit-reset': String(Math.floor(status.resetsAt / 1000)),
  };
}
