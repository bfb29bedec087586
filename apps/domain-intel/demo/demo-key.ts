import type { AccountsService, IssuedKey } from '../src/accounts/accounts-service.ts';
import { PLANS } from '../src/accounts/plans.ts';

/** The demo account `npm start` creates on its first start and signs in with on every start. */
export const DEMO_EMAIL = 'demo@domain-intel.example';
/**
 * The demo account's plan when it is created: Starter (as the operator would set it, no Stripe
 * subscription), so the dashboard offers the upgrade to Enterprise through the simulated Stripe and
 * the quick start's calls (bulk checks included) work from the first minute.
 */
export const DEMO_PLAN = PLANS.starter;

/**
 * Whether a key of the demo account is one `npm start` gave out: the sign-up's `default` key, or one
 * of the `npm start <time>` keys earlier versions added on every start (a demo data directory kept
 * from then has a pile of them). A key the user made in the dashboard has a name of their own.
 */
const isStartKey = (name: string) => name === 'default' || name.startsWith('npm start ');

/**
 * The demo key for this start, replacing the previous start's: its newest start key is rotated
 * (a new key under the same name, the old one revoked at once, `key.revoked` says by which) and
 * any other start key still active is revoked, so the demo account has one start key however often
 * the demo is started. The keys are stored hashed, so the previous one cannot be shown again.
 */
export async function replaceDemoKey(accounts: AccountsService): Promise<IssuedKey> {
  if (!(await accounts.findSummary(DEMO_EMAIL))) {
    return (await accounts.signUp({ email: DEMO_EMAIL, plan: DEMO_PLAN.id })).key;
  }
  const active = (await accounts.listKeys(DEMO_EMAIL))
    .filter((key) => key.revoked_at === null && isStartKey(key.name))
    .sort((a, b) => b.created_at.localeCompare(a.created_at));
  const [newest, ...older] = active;
  for (const key of older) await accounts.revokeKey(DEMO_EMAIL, key.key_id);
  return newest ? accounts.rotateKey(DEMO_EMAIL, newest.key_id) : accounts.createKey(DEMO_EMAIL, 'default');
}
