/** What the availability service answers for one name (the RDAP work's `check`). */
export interface AvailabilityVerdict {
  domain: string;
  available: boolean | null;
  status: string;
  source: string;
  server?: string;
  cached?: boolean;
  checked_at: string;
  reason?: string;
}

export interface ConfirmationLimits {
  /** Stop once this many are confirmed available (after the ones in flight land). */
  want: number;
  /** Checks in flight at once; the RDAP engine still applies its own per-server limits. */
  concurrency: number;
  /** Most names checked for one request, so one keyword cannot monopolise a registry's rate limit. */
  maxChecks: number;
  /** Epoch ms after which no answer is waited for. */
  deadline: number;
}

export interface ConfirmationOutcome<T> {
  confirmed: Array<{ item: T; verdict: AvailabilityVerdict }>;
  checked: number;
  /** Answers that were neither available nor registered (timeouts, 429s, errors). */
  unconfirmed: number;
  deadlineReached: boolean;
}

/**
 * Checks `ranked` (best first) with a sliding window of at most `concurrency` checks, never
 * more in flight than could still be needed, until `want` are confirmed available, the list or `maxChecks` runs out, or the deadline passes. Everything
 * launched is awaited (up to the deadline), so the confirmed set is exactly the available
 * names among a best-first prefix of the list. Anything but `available: true` — registered,
 * unknown, a thrown error, an answer after the deadline — leaves the name out.
 */
export function confirmBestFirst<T>(
  ranked: readonly T[],
  check: (item: T, deadline: number) => Promise<AvailabilityVerdict>,
  limits: ConfirmationLimits,
): Promise<ConfirmationOutcome<T>> {
  const limit = Math.min(ranked.length, limits.maxChecks);
  const confirmed: ConfirmationOutcome<T>['confirmed'] = [];
  let next = 0;
  let inFlight = 0;
  let unconfirmed = 0;
  let cutByDeadline = false;
  let finished = false;

  return new Promise((resolve) => {
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      const wantedMore = confirmed.length < limits.want && next < limit;
      resolve({
        confirmed,
        checked: next,
        unconfirmed,
        deadlineReached: cutByDeadline || (wantedMore && Date.now() >= limits.deadline),
      });
    };
    const timer = setTimeout(
      () => {
        cutByDeadline = inFlight > 0 || (confirmed.length < limits.want && next < limit);
        finish();
      },
      Math.max(0, limits.deadline - Date.now()),
    );
    const settle = (item: T, verdict: AvailabilityVerdict | undefined) => {
      inFlight--;
      if (finished) return;
      if (verdict?.available === true) confirmed.push({ item, verdict });
      else if (verdict?.available !== false) {
        unconfirmed++;
        if (verdict?.reason === 'deadline_exceeded') cutByDeadline = true;
      }
      launch();
      if (inFlight === 0) finish();
    };
    const launch = () => {
      while (
        inFlight < limits.concurrency &&
        next < limit &&
        // Checks in flight may all confirm: launching beyond `want` would only cost registry
        // requests and a round trip. A check that fails frees its place for the next name.
        confirmed.length + inFlight < limits.want &&
        Date.now() < limits.deadline
      ) {
        const item = ranked[next++]!;
        inFlight++;
        check(item, limits.deadline).then(
          (verdict) => settle(item, verdict),
          () => settle(item, undefined),
        );
      }
    };
    launch();
    if (inFlight === 0) finish();
  });
}
