import type { PlanId } from '../accounts/plans.ts';

/** Something the account's owner (or the account's webhooks) should hear about, told once per event. */
export type BillingNotice =
  | { type: 'subscription.ending'; accountId: string; email: string; plan: PlanId; endsAt: number }
  | { type: 'payment.failed'; accountId: string; email: string; plan: PlanId; nextAttemptAt: number | null };
