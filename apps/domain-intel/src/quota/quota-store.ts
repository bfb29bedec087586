/**
 * Daily call counters, one per account and UTC day. Implementations must be exact under
 * concurrency and across processes: `consume` never lets a call past the limit.
 */
export interface QuotaStore {
  /**
   * Takes one unit if the account is under `limit` (null: unlimited, still counted).
   * Returns whether it was taken and the count after the attempt. The counter may be
   * dropped `secondsToReset` from now (the next 00:00 UTC).
   */
  consume(accountId: string, day: string, limit: number | null, secondsToReset: number): Promise<QuotaDecision>;
  /** Gives back one unit taken today (the call failed on our side or upstream). */
  refund(accountId: string, day: string): Promise<void>;
  /** Units used on `day`. */
  used(accountId: string, day: string): Promise<number>;
  /**
   * Units used per day from `fromDay` to `toDay` (inclusive, YYYY-MM-DD), oldest first; days
   * without use may be left out. Kept at least HISTORY_DAYS back.
   */
  history(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
}

/** How many days of usage every store keeps for the account dashboard. */
export const HISTORY_DAYS = 35;

export interface DailyUsage {
  day: string;
  used: number;
}

export interface QuotaDecision {
  allowed: boolean;
  used: number;
}
