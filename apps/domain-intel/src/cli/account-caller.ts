import { PLANS } from '../accounts/plans.ts';
import type { AppContext } from '../context.ts';

/** The account a command works on, as a caller of the management API with its key would be. */
export async function callerOf(ctx: AppContext, email: string) {
  const account = await ctx.accounts.summary(email);
  return { accountId: account.account_id, plan: PLANS[account.plan] };
}
