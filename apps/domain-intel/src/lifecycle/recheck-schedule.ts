import type { PipelineStatus } from './states.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The standard gTLD deletion timeline (ICANN EDDP / registry agreements): 30 days of
 * redemption, then 5 days of pending delete, then the name is purged. A name seen leaving
 * the zone has usually just entered redemption, so its drop is expected 35 days later.
 */
export const REDEMPTION_DAYS = 30;
export const PENDING_DELETE_DAYS = 5;

export function expectedDropAt(status: PipelineStatus, statusSince: number): number {
  if (status === 'pending-delete') return statusSince + PENDING_DELETE_DAYS * DAY;
  return statusSince + (REDEMPTION_DAYS + PENDING_DELETE_DAYS) * DAY;
}

/**
 * When RDAP should look at a watched name again: rarely while its drop is far away, hourly
 * once it is near or overdue. The watchlist follows few names, so polling near the drop is
 * cheap there; the feed's candidates follow the registry's timeline instead (drop-plan.ts).
 */
export function nextCheckAt(now: number, expectedDrop: number): number {
  const untilDrop = expectedDrop - now;
  if (untilDrop <= 12 * HOUR) return now + HOUR;
  if (untilDrop <= 2 * DAY) return now + 6 * HOUR;
  return now + DAY;
}

/** After an answer that says nothing (timeout, 429, 5xx): back off, 1 h doubling up to a day. */
export function retryAfterFailure(now: number, failures: number): number {
  return now + Math.min(HOUR * 2 ** Math.max(0, failures - 1), DAY);
}
