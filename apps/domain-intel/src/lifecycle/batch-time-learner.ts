const DAY = 86_400_000;
/** Pending-delete dates that must agree before their time of day is taken as the registry's batch time. */
const AGREEING = 5;
/** How close (ms) their times of day must be. */
const TOLERANCE = 10 * 60_000;

/**
 * The daily batch time of each registry, learned from its own answers: a name's `pending delete`
 * status carries the registry's `last changed` date, the moment its batch moved the name, and the
 * purge runs in the same batch. Once the last few such dates of a TLD agree to within minutes,
 * that time of day plans the lookups of names not configured in RDAP_PURGE_TIMES. Kept in memory:
 * a restarted process learns it again from the first few pending-delete answers.
 */
export class BatchTimeLearner {
  readonly #recent = new Map<string, number[]>();

  /** A pending-delete start by the registry's date, for `tld`. */
  observe(tld: string, pendingDeleteSince: number): void {
    const times = this.#recent.get(tld) ?? [];
    times.push(((pendingDeleteSince % DAY) + DAY) % DAY);
    if (times.length > AGREEING) times.shift();
    this.#recent.set(tld, times);
  }

  /** The learned batch time of day of `tld` (ms after 00:00 UTC), or null while its answers disagree or are too few. */
  batchTimeOf(tld: string): number | null {
    const times = this.#recent.get(tld);
    if (!times || times.length < AGREEING) return null;
    const latest = times.at(-1)!;
    const agree = times.every((time) => {
      const apart = Math.abs(time - latest);
      return Math.min(apart, DAY - apart) <= TOLERANCE;
    });
    return agree ? latest : null;
  }
}
