const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Failed deliveries are retried with exponential back-off for this long, then given up. */
export const RETRY_WINDOW_MS = 24 * HOUR;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 3 * HOUR;

/** The wait before attempt `attempts + 1` after `attempts` failures: 30 s doubling, at most 3 h. */
export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}
