import { TurnBatcher } from '@repo/server-kit';
import type { QuotaStore, QuotaTakeRequest } from './quota-store.ts';

/** One call's share of a coalesced take. */
export interface CallDecision {
  allowed: boolean;
  /** The day's count with this call in it (allowed), or after the refusal. */
  used: number;
  /** A proxy's re-send of a call counted before (same request id): let through, not counted again. */
  repeated?: true;
}

interface CallRequest {
  accountId: string;
  day: string;
  limit: number | null;
  secondsToReset: number;
  /** The proxy's id of the call (see QuotaTakeRequest.requestId), when it is trusted. */
  requestId: string | undefined;
}

/** The calls of one turn for one counter (account, day and limit): one request to the store. */
interface CounterTake {
  request: QuotaTakeRequest;
  /** Positions of its calls in the turn, in arrival order. */
  calls: number[];
}

/** Every call of a turn goes into the one batch of that turn. */
const TURN = 'turn';

/**
 * Coalesces the quota units asked for in the same turn of the event loop, by every account, into
 * one store call (`takeMany`: one Redis script for the whole turn; in SQL one upsert per account;
 * see TurnBatcher). Each account's calls of the turn become one request of n units instead of n.
 * Under load the store is asked once per turn.
 *
 * What stays exact: every call let through is counted in the store (committed) before its
 * handler runs, because the batch waits for the store's answer; a call is refused only when the
 * store says the limit leaves no unit for it; so the stored count is exactly the calls let through
 * (minus refunds), across any number of processes, as with one statement per call. Nothing is
 * counted ahead of calls (no unused units are ever reserved or lost in a crash). Within an
 * account's calls of a turn the calls get the units in arrival order and each its own count
 * (`used`), as if taken one by one. When the store fails for one account, only that account's
 * calls of the turn fail. What it costs: a call waits for the end of the turn it arrived in (the
 * event loop's check phase) before its units are asked for.
 */
export class CoalescedTakes {
  readonly #batches: TurnBatcher<CallRequest, CallDecision>;

  constructor(store: QuotaStore) {
    this.#batches = new TurnBatcher(async (calls) => {
      const counters = countersOf(calls);
      const outcomes = await store.takeMany(counters.map((counter) => counter.request));
      const decisions: Array<CallDecision | Promise<never>> = new Array(calls.length);
      counters.forEach(({ calls: positions }, i) => {
        const outcome = outcomes[i]!;
        if (outcome.status === 'rejected') {
          const failure = Promise.reject(outcome.reason);
          for (const position of positions) decisions[position] = failure;
          return;
        }
        const { taken, used, repeated } = outcome.value;
        if (repeated) {
          // Counted by the instance that took this call first (and died before answering).
          decisions[positions[0]!] = { allowed: true, used, repeated: true };
          return;
        }
        const before = used - taken;
        positions.forEach((position, k) => {
          decisions[position] = k < taken ? { allowed: true, used: before + k + 1 } : { allowed: false, used };
        });
      });
      return decisions;
    });
  }

  /**
   * One unit for one call, decided together with the other calls of this turn. A call with a
   * request id is taken at most once per id, whichever instance sees it again.
   */
  takeOne(
    accountId: string,
    day: string,
    limit: number | null,
    secondsToReset: number,
    requestId?: string,
  ): Promise<CallDecision> {
    return this.#batches.add(TURN, { accountId, day, limit, secondsToReset, requestId });
  }
}

/**
 * The turn's calls grouped by counter, in order of each counter's first call. A call with a
 * request id is a request of its own (its marker is its own), still in the turn's one store call.
 */
function countersOf(calls: readonly CallRequest[]): CounterTake[] {
  const counters = new Map<string, CounterTake>();
  calls.forEach(({ accountId, day, limit, secondsToReset, requestId }, position) => {
    if (requestId !== undefined) {
      const request = { accountId, day, limit, units: 1, secondsToReset, requestId };
      counters.set(`${position}`, { request, calls: [position] });
      return;
    }
    const key = `${accountId} ${day} ${limit}`;
    const counter = counters.get(key);
    if (counter) {
      counter.request.units++;
      counter.calls.push(position);
    } else {
      counters.set(key, { request: { accountId, day, limit, units: 1, secondsToReset }, calls: [position] });
    }
  });
  return [...counters.values()];
}
