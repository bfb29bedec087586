import type { Plan } from './plans.ts';
import { isPaid } from './plans.ts';

/** Adds calendar months in UTC, clamping the day (Jan 31 + 1 month = Feb 28/29). */
export function addUtcMonths(time: number, months: number): number {
  const date = new Date(time);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

export interface SubscriptionState {
  period_start: number;
  period_end: number | null;
  cancelled_at: number | null;
}

export interface EffectiveSubscription {
  /** `ended`: a cancelled paid plan past its billing period; its keys are revoked. */
  status: 'active' | 'cancelled' | 'ended';
  periodStart: number;
  periodEnd: number | null;
}

/**
 * Where a subscription stands at `now`. Paid plans renew monthly until cancelled (billing
 * itself is outside this service); a cancelled one runs to the end of its period, then ends.
 */
export function effectiveSubscription(plan: Plan, state: SubscriptionState, now: number): EffectiveSubscription {
  if (!isPaid(plan) || state.period_end === null) {
    return { status: 'active', periodStart: state.period_start, periodEnd: null };
  }
  if (state.cancelled_at !== null) {
    return {
      status: now >= state.period_end ? 'ended' : 'cancelled',
      periodStart: state.period_start,
      periodEnd: state.period_end,
    };
  }
  let periodStart = state.period_start;
  let periodEnd = state.period_end;
  while (now >= periodEnd) {
    periodStart = periodEnd;
    periodEnd = addUtcMonths(state.period_start, monthsBetween(state.period_start, periodEnd) + 1);
  }
  return { status: 'active', periodStart, periodEnd };
}

function monthsBetween(start: number, end: number): number {
  const a = new Date(start);
  const b = new Date(end);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
}
