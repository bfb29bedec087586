/** How often the takes whose outcome was lost are looked at again while any are waiting. */
export const UNANSWERED_SETTLE_INTERVAL_MS = 1_000;

/** A take with a request id whose reply never came: Redis may have counted it or not. */
export interface UnansweredTake {
  accountId: string;
  day: string;
  requestId: string;
}

/** What settling one take found: its unit was counted and is now given back, or nothing was counted. */
export type Settled = 'refunded' | 'not_counted';

/**
 * Takes whose outcome the store never learned, given back later when they turn out counted.
 *
 * A take is one script, and its reply can be lost after Redis ran it: the connection closes, or
 * the master is killed between running it and answering (a failover). The call is answered 503
 * (nothing was let through), yet its unit may be counted, so an account would lose a call it
 * never got. A take with a request id leaves a marker in the same atomic step as its unit, so
 * the marker tells afterwards what happened: this keeps such takes and, every
 * UNANSWERED_SETTLE_INTERVAL_MS while any wait, asks the store to give the unit back if the marker
 * is there (and remove it). A take that cannot be settled yet (Redis still failing over) is
 * asked again; one whose marker may have expired (`markerSeconds`, the store's
 * REQUEST_ID_SECONDS) cannot be told apart any more and is dropped, counted in `expired`. Takes
 * without an id have no marker: their loss stays the documented bound of an outage.
 */
export class UnansweredTakes {
  readonly #settle: (take: UnansweredTake) => Promise<Settled>;
  readonly #onError: (error: unknown) => void;
  readonly #now: () => number;
  readonly #markerMs: number;
  #waiting: Array<UnansweredTake & { expiresAt: number }> = [];
  #settling: Promise<void> | undefined;
  #refunded = 0;
  #expired = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(
    settle: (take: UnansweredTake) => Promise<Settled>,
    options: { markerSeconds: number; onError?: (error: unknown) => void; now?: () => number; intervalMs?: number },
  ) {
    this.#markerMs = options.markerSeconds * 1000;
    this.#settle = settle;
    this.#onError = options.onError ?? (() => {});
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(() => {
      if (this.#waiting.length > 0) this.settle().catch(this.#onError);
    }, options.intervalMs ?? UNANSWERED_SETTLE_INTERVAL_MS);
    this.#timer.unref();
  }

  /** A take whose reply was lost (its marker, if any, was written at most now). */
  add(take: UnansweredTake): void {
    this.#waiting.push({ ...take, expiresAt: this.#now() + this.#markerMs });
  }

  /** Takes waiting to be settled. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Units given back since start: takes Redis had counted for calls that were answered 503. */
  get refunded(): number {
    return this.#refunded;
  }

  /** Takes dropped unsettled because their marker may have expired meanwhile. */
  get expired(): number {
    return this.#expired;
  }

  /** Settles what it can now (one pass at a time); resolves to the number still waiting. */
  async settle(): Promise<number> {
    this.#settling ??= this.#settleWaiting().finally(() => {
      this.#settling = undefined;
    });
    await this.#settling;
    return this.#waiting.length;
  }

  async #settleWaiting(): Promise<void> {
    const now = this.#now();
    const taken = this.#waiting;
    this.#waiting = [];
    const outcomes = await Promise.allSettled(
      taken.map((take) => (take.expiresAt <= now ? Promise.resolve('expired' as const) : this.#settle(take))),
    );
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') {
        this.#waiting.push(taken[i]!);
        return;
      }
      if (outcome.value === 'refunded') this.#refunded++;
      if (outcome.value === 'expired') this.#expired++;
    });
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
