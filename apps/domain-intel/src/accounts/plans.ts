/**
 * The plan table. Every plan-dependent decision reads it; nothing else in the code
 * compares plan names.
 */
export type PlanId = 'free' | 'starter' | 'enterprise';

export interface Plan {
  id: PlanId;
  name: string;
  priceUsdPerMonth: number;
  /** Calls per UTC day; null means unlimited. */
  dailyCallLimit: number | null;
  /** Most domains in one /v1/check call (1 means no bulk). */
  maxDomainsPerCheck: number;
  features: {
    bulkCheck: boolean;
    snapshots: boolean;
    bulkExport: boolean;
    /** Saved filters delivered to webhooks, e-mail and SFTP (not only the dashboard); e-mail and SFTP targets. */
    deliveryTargets: boolean;
    /**
     * Webhook targets that receive the account events (quota.warning, key.revoked, watch.transition, …).
     * Every plan: the quota events only ever fire on plans with a daily limit.
     */
    accountWebhooks: boolean;
  };
  /** Most saved filters; those over it (after a downgrade) are paused, never deleted. */
  maxSavedFilters: number;
  /** Most watched domains; those over it (after a downgrade) are paused, never deleted. */
  maxWatchedDomains: number;
  support: string;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    priceUsdPerMonth: 0,
    dailyCallLimit: 100,
    maxDomainsPerCheck: 1,
    features: { bulkCheck: false, snapshots: false, bulkExport: false, deliveryTargets: false, accountWebhooks: true },
    maxSavedFilters: 1,
    maxWatchedDomains: 10,
    support: 'community',
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    priceUsdPerMonth: 19,
    dailyCallLimit: 1_000,
    maxDomainsPerCheck: 30,
    features: { bulkCheck: true, snapshots: false, bulkExport: false, deliveryTargets: false, accountWebhooks: true },
    maxSavedFilters: 10,
    maxWatchedDomains: 1_000,
    support: 'e-mail',
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    priceUsdPerMonth: 299,
    dailyCallLimit: null,
    maxDomainsPerCheck: 30,
    features: { bulkCheck: true, snapshots: true, bulkExport: true, deliveryTargets: true, accountWebhooks: true },
    maxSavedFilters: 500,
    maxWatchedDomains: 100_000,
    support: 'chat, SLA',
  },
};

export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

export function isPlanId(value: string): value is PlanId {
  return Object.hasOwn(PLANS, value);
}

export type PlanFeature = keyof Plan['features'];

/** Free never expires; paid plans bill monthly. */
export function isPaid(plan: Plan): boolean {
  return plan.priceUsdPerMonth > 0;
}
