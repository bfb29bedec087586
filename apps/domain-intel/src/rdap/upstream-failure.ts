import type { RdapFailureReason } from './types.ts';

/** Why one HTTP exchange with an RDAP server gave no usable answer. */
export type FetchFailureReason = RdapFailureReason | 'blocked_address';

/** Thrown inside the HTTP layer so the circuit breaker sees the failure; callers get it as data. */
export class UpstreamFailure extends Error {
  readonly reason: FetchFailureReason;
  constructor(reason: FetchFailureReason, message: string) {
    super(message);
    this.name = 'UpstreamFailure';
    this.reason = reason;
  }
}

/** Failures that say nothing about the server's health (our own deadline, our own guard). */
export function isCallerSideFailure(error: unknown): boolean {
  return (
    error instanceof UpstreamFailure && (error.reason === 'deadline_exceeded' || error.reason === 'blocked_address')
  );
}

/**
 * What to report when a lane's queued exchange failed: the queue gives up on the deadline's abort
 * at once, but the exchange judges that abort itself (a `timeout` when the server had run past its
 * slow figure), so its own failure, settling on the same abort, wins over the queue's AbortError.
 */
export async function exchangeFailure(exchange: Promise<unknown> | undefined, error: unknown): Promise<unknown> {
  return exchange
    ? exchange.then(
        () => error,
        (failure: unknown) => failure,
      )
    : error;
}

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Unreadable or absent values give undefined.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (header === undefined || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
