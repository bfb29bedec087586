/**
 * A short claim on one row of an outbox (its due time moved a little ahead, compare-and-set on the
 * time it had), so that of several processes reading the same due row one sends it.
 */
export interface RenewableClaim {
  /** Takes the claim: the time it lasts until, or null when another process took the row first. */
  take(): Promise<number | null>;
  /** Extends the claim that lasts until `claimedUntil`: the new end, or null when it is no longer ours. */
  renew(claimedUntil: number): Promise<number | null>;
}

/**
 * Runs `work` under `claim`, renewed every third of `claimMs` (real time) while the work lasts: the
 * claim can be short, since it only lapses when its holder stopped renewing it (the process died),
 * and a row whose sender died is due again at most `claimMs` later, however long a send may take.
 * Returns false, without running `work`, when another process holds the claim. A renewal that
 * finds the claim no longer ours (it lapsed while this process stood still, and another took the
 * row) stops renewing; the work goes on, so the row may be sent twice, under the same id.
 */
export async function whileClaimed(
  claim: RenewableClaim,
  claimMs: number,
  work: () => Promise<void>,
): Promise<boolean> {
  let claimedUntil = await claim.take();
  if (claimedUntil === null) return false;
  // One renewal at a time: a second one sent with the same end would find the claim moved on.
  let renewing = false;
  const renewal = setInterval(() => {
    if (claimedUntil === null || renewing) return;
    renewing = true;
    claim
      .renew(claimedUntil)
      .then((until) => {
        claimedUntil = until;
      })
      // A renewal that failed (the database busy) is tried again at the next third.
      .catch(() => {})
      .finally(() => {
        renewing = false;
      });
  }, claimMs / 3);
  renewal.unref();
  try {
    await work();
  } finally {
    clearInterval(renewal);
  }
  return true;
}
