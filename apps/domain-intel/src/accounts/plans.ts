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
  };
  support: string;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    priceUsdPerMonth: 0,
    dailyCallLimit: 100,
    maxDomainsPerCheck: 1,
    features: { bulkCheck: false, snapshots: false, bulkExport: false },
    support: 'community',
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    priceUsdPerMonth: 19,
    dailyCallLimit: 1_000,
    maxDomainsPerCheck: 30,
    features: { bulkCheck: true, snapshots: false, bulkExport: false },
    support: 'e-mail',
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    priceUsdPerMonth: 299,
    dailyCallLimit: null,
    maxDomainsPerCheck: 30,
    features: { bulkCheck: true, snapshots: true, bulkExport: true },
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
