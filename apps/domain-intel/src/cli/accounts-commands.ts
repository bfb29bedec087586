import { cliValue } from '@repo/server-kit/cli';
import type { Command } from 'commander';
import { isPlanId, PLAN_IDS, PLANS, type PlanId } from '../accounts/plans.ts';
import type { AppContext } from '../context.ts';
import { printResult, table } from './output.ts';

type GetContext = () => Promise<AppContext>;

const planOption = cliValue((value: string): PlanId => {
  if (!isPlanId(value)) throw new Error(`Unknown plan "${value}"; the plans are ${PLAN_IDS.join(', ')}.`);
  return value;
});

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** accounts, keys, plans and subscriptions: what an operator needs without a dashboard. */
export function registerAccountCommands(program: Command, getContext: GetContext): void {
  const accounts = program.command('accounts').description('Accounts of the API');
  accounts
    .command('create')
    .description('Create an account and its first API key (shown once)')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--plan <plan>', `plan: ${PLAN_IDS.join(' | ')}`, planOption, 'free')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; plan: PlanId; json?: boolean }) => {
      const ctx = await getContext();
      const { account, key } = await ctx.accounts.signUp({ email: options.email, plan: options.plan });
      printResult(
        Boolean(options.json),
        { account_id: account.account_id, email: account.email, plan: account.plan, key: key.key, key_id: key.key_id },
        () => `Account ${account.account_id} (${account.email}) on ${account.plan}.\nAPI key (shown once): ${key.key}`,
      );
    });

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .description('Create an API key for an account; creates the account (on --plan) if it does not exist')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--plan <plan>', `plan of a new account, or the plan to switch to: ${PLAN_IDS.join(' | ')}`, planOption)
    .option('--name <name>', 'a label for the key', 'default')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; plan?: PlanId; name: string; json?: boolean }) => {
      const ctx = await getContext();
      const existing = await ctx.accounts.findSummary(options.email);
      let issued: { key: string; key_id: string };
      if (!existing) {
        issued = (await ctx.accounts.signUp({ email: options.email, plan: options.plan ?? 'free' })).key;
      } else {
        if (options.plan && options.plan !== existing.plan) await ctx.accounts.setPlan(options.email, options.plan);
        issued = await ctx.accounts.createKey(options.email, options.name);
      }
      const account = await ctx.accounts.summary(options.email);
      printResult(
        Boolean(options.json),
        {
          key: issued.key,
          key_id: issued.key_id,
          account_id: account.account_id,
          email: account.email,
          plan: account.plan,
        },
        () => `API key for ${account.email} (${account.plan}), shown once:\n${issued.key}`,
      );
    });
  keys
    .command('list')
    .description('List the keys of an account (prefix and last use only; keys themselves are never stored)')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      const ctx = await getContext();
      const list = await ctx.accounts.listKeys(options.email);
      printResult(Boolean(options.json), list, () => table(list));
    });
  keys
    .command('revoke')
    .description('Revoke a key at once')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--key-id <id>', 'id of the key (see keys list)')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; keyId: string; json?: boolean }) => {
      const ctx = await getContext();
      await ctx.accounts.revokeKey(options.email, options.keyId);
      printResult(
        Boolean(options.json),
        { key_id: options.keyId, revoked: true },
        () => `Key ${options.keyId} revoked.`,
      );
    });
  keys
    .command('rotate')
    .description('Replace a key with a new one (shown once); the old one stops working at once')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--key-id <id>', 'id of the key to replace')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; keyId: string; json?: boolean }) => {
      const ctx = await getContext();
      const issued = await ctx.accounts.rotateKey(options.email, options.keyId);
      printResult(
        Boolean(options.json),
        { key: issued.key, key_id: issued.key_id, replaced: options.keyId },
        () => `New key (shown once): ${issued.key}\nKey ${options.keyId} is revoked.`,
      );
    });

  const plans = program.command('plans').description('Plans and plan changes');
  plans
    .command('list')
    .description('The plans and what they include')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = Object.values(PLANS).map((plan) => ({
        plan: plan.id,
        price_usd_per_month: plan.priceUsdPerMonth,
        daily_calls: plan.dailyCallLimit ?? 'unlimited',
        bulk_check: plan.maxDomainsPerCheck,
        snapshots: plan.features.snapshots,
        bulk_export: plan.features.bulkExport,
      }));
      printResult(Boolean(options.json), list, () => table(list));
    });
  plans
    .command('set')
    .description('Upgrade or downgrade an account, effective now with a new billing period')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--plan <plan>', `${PLAN_IDS.join(' | ')}`, planOption)
    .option('--json', 'print JSON')
    .action(async (options: { email: string; plan: PlanId; json?: boolean }) => {
      const ctx = await getContext();
      const account = await ctx.accounts.setPlan(options.email, options.plan);
      const periodEnd = iso(account.subscription.periodEnd);
      printResult(
        Boolean(options.json),
        { account_id: account.account_id, email: account.email, plan: account.plan, period_end: periodEnd },
        () => `${account.email} is now on ${account.plan}${periodEnd ? ` (billing period ends ${periodEnd})` : ''}.`,
      );
    });

  const subscriptions = program.command('subscriptions').description('Subscriptions');
  subscriptions
    .command('cancel')
    .description('Cancel a paid plan: its keys keep working until the end of the billing period')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      const ctx = await getContext();
      const account = await ctx.accounts.cancelSubscription(options.email);
      const periodEnd = iso(account.subscription.periodEnd);
      printResult(
        Boolean(options.json),
        {
          account_id: account.account_id,
          plan: account.plan,
          status: account.subscription.status,
          period_end: periodEnd,
        },
        () => `Cancelled. The keys of ${account.email} keep working until ${periodEnd}.`,
      );
    });
}
