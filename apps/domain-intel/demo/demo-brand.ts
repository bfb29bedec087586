import { PLANS } from '../src/accounts/plans.ts';
import type { AppContext } from '../src/context.ts';

/**
 * The demo's brand alert: a brand-protection customer (an Enterprise account, as the operator
 * would set it: saved filters deliver to webhooks on Enterprise only) watches new registrations
 * for lookalikes of a fictional brand, delivered to the demo's webhook inbox. The churn registers
 * these lookalikes during the five replayed days, so the alert fires during the first start's
 * replay whatever the random names are.
 */
export const DEMO_BRAND = 'northwind';
export const DEMO_BRAND_EMAIL = 'brand-watch@domain-intel.example';
export const DEMO_BRAND_FILTER = 'northwind lookalikes';

/** Registered by the simulated registries on replayed days 2 and 3: one of each of four kinds. */
export const DEMO_BRAND_LOOKALIKES = [
  { day: 2, name: 'n0rthwind.com' }, // homoglyph: 0 for o
  { day: 2, name: 'northwind-login.net' }, // contains
  { day: 3, name: 'nortwhind.xyz' }, // transposition
  { day: 3, name: 'northwind24.store' }, // digit_inserted
] as const;

/**
 * Creates the brand-watch account, its webhook target (the demo inbox) and its brand filter on
 * new registrations. Runs inside the first start's replay, on the replay's clock, so that the
 * filter's watermark is older than the days replayed after it. Does nothing when the account exists.
 */
export async function seedBrandAlert(ctx: AppContext, inboxUrl: string): Promise<void> {
  if (await ctx.accounts.findSummary(DEMO_BRAND_EMAIL)) return;
  const { account } = await ctx.accounts.signUp({ email: DEMO_BRAND_EMAIL, plan: 'enterprise' });
  const caller = { accountId: account.account_id, plan: PLANS.enterprise };
  const target = await ctx.targets.create(caller, { kind: 'webhook', address: inboxUrl });
  await ctx.savedFilters.create(caller, {
    name: DEMO_BRAND_FILTER,
    filter: 'status=new',
    brand: DEMO_BRAND,
    targetIds: [target.target_id],
  });
}
