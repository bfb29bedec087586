import { TurnBatcher } from '@repo/server-kit';
import type { QuotaStore } from './quota-store.ts';

/** One call's share of a coalesced take. */
export interface CallDecision {
  allowed: boolean;
  /** The day's count with this call in it (allowed), or after the refusal. */
  used: number;
}

interface TakeRequest {
  accountId: string;
  day: string;
  limit: number | null;
  secondsToReset: number;
}

/**
 * Coalesces the quota units of one account and day asked for in the same turn of the event loop
 * into one store call (`take` of n units: one SQL upsert or one Redis script instead of n; see
 * TurnBatcher). Under load the store is asked once per turn per account.
 *
 * What stays exact: every call let through is counted in the store (committed) before its
 * handler runs, because the batch waits for the store's answer; a call is refused only when the
 * store says the limit leaves no unit for it; so the stored count is exactly the calls let through
 * (minus refunds), across any number of processes, as with one statement per call. Nothing is
 * counted ahead of calls (no unused units are ever reserved or lost in a crash). Within a batch the
 * calls get the units in arrival order and each its own count (`used`), as if taken one by one.
 * What it costs: a call waits for the end of the turn it arrived in (the event loop's check phase)
 * before its units are asked for.
 */
export class CoalescedTakes {
  readonly #batches: TurnBatcher<TakeRequest, CallDecision>;

  constructor(store: QuotaStore) {
    this.#batches = new TurnBatcher(async (requests) => {
      const { accountId, day, limit, secondsToReset } = requests[0]!;
      const { taken, used } = await store.take(accountId, day, limit, requests.length, secondsToReset);
      const before = used - taken;
      return requests.map((_, i) => (i < taken ? { allowed: true, used: before + i + 1 } : { allowed: false, used }));
    });
  }

  /** One unit for one call, decided together with the other calls of this turn. */
  takeOne(accountId: string, day: string, limit: number | null, secondsToReset: number): Promise<CallDecision> {
    return this.#batches.add(`${accountId} ${day} ${limit}`, { accountId, day, limit, secondsToReset });
  }
}
