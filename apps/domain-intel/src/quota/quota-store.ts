import type { UnansweredTakes } from './unanswered-takes.ts';

/**
 * Daily call counters, one per account and UTC day. Implementations must be exact under
 * concurrency and across processes: `takeMany` never takes a unit past a limit, and every unit
 * it says it took is counted (committed) before it returns.
 */
export interface QuotaStore {
  /**
   * Takes units for several counters at once (the takes of one event-loop turn, any accounts),
   * one outcome per request in the same order. Each request takes up to `units` units while the
   * account is under `limit` (null: unlimited, still counted): all of them, or as many as are
   * left; its outcome says how many were taken and the count after the attempt. The counter may
   * be dropped `secondsToReset` from now (the next 00:00 UTC). A request the store fails on has a
   * rejected outcome and the others stand (one account's failure never fails another account's
   * calls); the whole promise rejects when the store could not be asked at all (Redis
   * unreachable).
   */
  takeMany(requests: readonly QuotaTakeRequest[]): Promise<Array<PromiseSettledResult<QuotaTake>>>;
  /**
   * Takes all `units` of one request or none of them (a bulk job is admitted whole or refused
   * whole, never cut to what is left). Exact under concurrency like `takeMany`: one atomic step
   * checks and adds, so two jobs racing for the last units never both get them.
   */
  takeWhole(request: QuotaTakeRequest): Promise<QuotaTake>;
  /** Gives back one unit taken today (the call failed on our side or upstream). */
  refund(accountId: string, day: string): Promise<void>;
  /** Units used on `day`. */
  used(accountId: string, day: string): Promise<number>;
  /**
   * Units used per day from `fromDay` to `toDay` (inclusive, YYYY-MM-DD), oldest first; days
   * without use may be left out. Kept at least HISTORY_DAYS back.
   */
  history(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
  /**
   * Takes whose reply was lost, settled in the background (the Redis store: a script can run and
   * its reply be lost; a SQL take's transaction either commits before it answers or not at all).
   */
  readonly unanswered?: UnansweredTakes;
}

/** How many days of usage every store keeps for the account dashboard. */
export const HISTORY_DAYS = 35;

export interface DailyUsage {
  day: string;
  used: number;
}

export interface QuotaTakeRequest {
  accountId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** null: unlimited. */
  limit: number | null;
  units: number;
  secondsToReset: number;
  /**
   * The call's id given by the trusted proxy in front of the API (QUOTA_REQUEST_ID_HEADER), for a
   * request of one unit: the proxy re-sends a call whose instance died without answering to
   * another instance, and the unit the dead instance took for it must not be taken again. A store
   * takes at most one unit per account and request id within REQUEST_ID_SECONDS: the marker is
   * written in the same atomic step as the unit, and a request whose id it holds is answered
   * `repeated` without taking anything.
   */
  requestId?: string;
}

export interface QuotaTake {
  /** Units taken: `units`, or fewer (down to 0) when the limit was reached. */
  taken: number;
  /** The day's count after the attempt. */
  used: number;
  /** The request's id was counted before (a proxy's re-send): the call is let through, nothing taken. */
  repeated?: true;
}

/**
 * How long a store remembers a counted request id. It must outlast the longest time a proxy may
 * wait for an instance before re-sending the call elsewhere (HAProxy's `timeout server`, 60 s in
 * `npm run cluster`'s configuration); one key (Redis) or row (SQL) per counted call lives that long.
 */
export const REQUEST_ID_SECONDS = 120;
