import type { QuotaStore } from './quota-store.ts';

/** One call's share of a coalesced take. */
export interface CallDecision {
  allowed: boolean;
  /** The day's count with this call in it (allowed), or after the refusal. */
  used: number;
}

interface Waiter {
  resolve(decision: CallDecision): void;
  reject(error: unknown): void;
}

interface Batch {
  accountId: string;
  day: string;
  limit: number | null;
  secondsToReset: number;
  waiters: Waiter[];
}

/**
 * Coalesces the quota units of one account and day asked for in the same turn of the event loop
 * into one store call (`take` of n units: one SQL upsert or one Redis script instead of n). Under
 * load a server reads many requests per turn, so the store is asked once per turn per account.
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
  #pending = new Map<string, Batch>();
  #scheduled = false;

  constructor(private readonly store: QuotaStore) {}

  /** One unit for one call, decided together with the other calls of this turn. */
  takeOne(accountId: string, day: string, limit: number | null, secondsToReset: number): Promise<CallDecision> {
    const key = `${accountId} ${day} ${limit}`;
    let batch = this.#pending.get(key);
    if (!batch) {
      batch = { accountId, day, limit, secondsToReset, waiters: [] };
      this.#pending.set(key, batch);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
    const waiters = batch.waiters;
    return new Promise((resolve, reject) => {
      waiters.push({ resolve, reject });
    });
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const batches = this.#pending;
    this.#pending = new Map();
    for (const batch of batches.values()) void this.#take(batch);
  };

  async #take(batch: Batch): Promise<void> {
    const { waiters } = batch;
    try {
      const { taken, used } = await this.store.take(
        batch.accountId,
        batch.day,
        batch.limit,
        waiters.length,
        batch.secondsToReset,
      );
      const before = used - taken;
      for (let i = 0; i < waiters.length; i++) {
        waiters[i]!.resolve(i < taken ? { allowed: true, used: before + i + 1 } : { allowed: false, used });
      }
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}
