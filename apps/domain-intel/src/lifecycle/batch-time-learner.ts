const DAY = 86_400_000;
/** Pending-delete dates that must agree before their time of day is taken as the registry's batch time. */
const AGREEING = 5;
/** How close (ms) their times of day must be. */
const TOLERANCE = 10 * 60_000;

/**
 * The daily batch time of each registry, learned from its own answers: a name's `pending delete`
 * status carries the registry's `last changed` date, the moment its batch moved the name, and the
 * purge runs in the same batch. Once the last few such dates of a TLD agree to within minutes,
 * that time of day plans the lookups of names not configured in RDAP_PURGE_TIMES, and it stays
 * until the last few agree on another (a stray date, a name moved by hand, teaches nothing).
 * A time learned before a restart is handed back with `remember` (learned-batch-times.ts keeps it).
 */
export class BatchTimeLearner {
  readonly #recent = new Map<string, number[]>();
  readonly #learned = new Map<string, number>();
  /** The registry times seen since the last `takeDays`, per TLD: the batch calendar's evidence (batch-calendar.ts). */
  #seen: SeenBatchTime[] = [];

  /** A time learned earlier (by this process before a restart, or another one), unless this one has learned since. */
  remember(tld: string, timeOfDay: number): void {
    if (!this.#learned.has(tld)) this.#learned.set(tld, timeOfDay);
  }

  /** A pending-delete start by the registry's date, for `tld`. */
  observe(tld: string, pendingDeleteSince: number): void {
    this.#seen.push({ tld, at: pendingDeleteSince });
    const times = this.#recent.get(tld) ?? [];
    times.push(((pendingDeleteSince % DAY) + DAY) % DAY);
    if (times.length > AGREEING) times.shift();
    this.#recent.set(tld, times);
    const agreed = agreement(times);
    if (agreed !== null) this.#learned.set(tld, agreed);
  }

  /** The registry times observed since the last call, to be kept in the batch calendar. */
  takeDays(): SeenBatchTime[] {
    const seen = this.#seen;
    this.#seen = [];
    return seen;
  }

  /** The learned batch time of day of `tld` (ms after 00:00 UTC), or null while none was learned. */
  batchTimeOf(tld: string): number | null {
    return this.#learned.get(tld) ?? null;
  }
}

/** The latest of `times` when there are enough of them and all agree with it; else null. */
function agreement(times: readonly number[]): number | null {
  if (times.length < AGREEING) return null;
  const latest = times.at(-1)!;
  const agree = times.every((time) => {
    const apart = Math.abs(time - latest);
    return Math.min(apart, DAY - apart) <= TOLERANCE;
  });
  return agree ? latest : null;
}

/** A pending-delete move by the registry's own date (its `last changed`), as observed. */
export interface SeenBatchTime {
  tld: string;
  at: number;
}
