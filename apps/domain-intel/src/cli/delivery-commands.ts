import { wholeNumber } from '@repo/server-kit/cli';
import type { Command } from 'commander';
import { normalizeBrandTerm } from '../brand/brand-term.ts';
import type { AppContext } from '../context.ts';
import { callerOf } from './account-caller.ts';
import { jobRunner } from './job-runner.ts';
import { describeDeliveries } from './jobs-commands.ts';
import { printJobOutcome, printResult, table } from './output.ts';

type GetContext = () => Promise<AppContext>;

/** `filters`, `deliveries`: saved filters and their delivery for scripting and operations. */
export function registerDeliveryCommands(program: Command, getContext: GetContext): void {
  const filters = program.command('filters').description('Saved feed filters of an account');
  filters
    .command('create')
    .description('Save a filter (the /v1/domains parameters) and optionally deliver it to a new webhook')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--name <name>', 'a name for the filter')
    .requiredOption('--filter <query>', 'the filter as a query string, e.g. "tld=com&min_da=20"')
    .option('--brand <term>', 'a brand term (e.g. paypal): deliver only the names that look like it')
    .option('--webhook <url>', 'also create a webhook target (Enterprise) and deliver to it')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        email: string;
        name: string;
        filter: string;
        brand?: string;
        webhook?: string;
        json?: boolean;
      }) => {
        const ctx = await getContext();
        const caller = await callerOf(ctx, options.email);
        // Check the filter and the plan before creating a target, so a refusal leaves nothing behind.
        ctx.savedFilters.canonical(options.filter);
        if (options.brand !== undefined) normalizeBrandTerm(options.brand);
        if (options.webhook) ctx.savedFilters.assertDeliveryAllowed(caller.plan);
        const target = options.webhook
          ? await ctx.targets.create(caller, { kind: 'webhook', address: options.webhook })
          : null;
        const filter = await ctx.savedFilters
          .create(caller, {
            name: options.name,
            filter: options.filter,
            brand: options.brand,
            targetIds: target ? [target.target_id] : [],
          })
          .catch(async (error: unknown) => {
            // Refused after all (the plan's limit, a taken name): the new target goes too.
            if (target) await ctx.targets.remove(caller.accountId, target.target_id);
            throw error;
          });
        printResult(
          Boolean(options.json),
          {
            filter_id: filter.filter_id,
            name: filter.name,
            filter: filter.filter,
            brand: filter.brand,
            ...(target ? { target_id: target.target_id, webhook: target.address, secret: target.secret } : {}),
          },
          () =>
            `Saved filter ${filter.filter_id} "${filter.name}": ${filter.filter}` +
            (filter.brand ? ` (brand alert: ${filter.brand})` : '') +
            (target
              ? `\nWebhook ${target.address} (${target.target_id}); signing secret, shown once: ${target.secret}`
              : ''),
        );
      },
    );
  filters
    .command('list')
    .description('The saved filters of an account')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      const list = await ctx.savedFilters.list(caller.accountId, caller.plan);
      printResult(Boolean(options.json), list, () =>
        table(list.map((view) => ({ ...view, target_ids: view.target_ids.join(',') }))),
      );
    });
  filters
    .command('delete')
    .description('Delete a saved filter')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--filter-id <id>', 'id of the filter')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; filterId: string; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      await ctx.savedFilters.remove(caller.accountId, options.filterId);
      printResult(
        Boolean(options.json),
        { filter_id: options.filterId, deleted: true },
        () => `Deleted ${options.filterId}.`,
      );
    });

  const deliveries = program.command('deliveries').description('Delivery of saved filters and account events');
  deliveries
    .command('run')
    .description('Match saved filters against new feed rows and deliver everything due now')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = await getContext();
      const outcome = await (await jobRunner()).runJob(ctx, 'deliveries');
      printJobOutcome(Boolean(options.json), outcome, () => describeDeliveries(outcome), 'Deliveries');
    });
  deliveries
    .command('list')
    .description('The delivery log of an account, newest first')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--limit <n>', 'entries, 1-1000', wholeNumber(1, 1000), 50)
    .option('--json', 'print JSON')
    .action(async (options: { email: string; limit: number; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      const log = await ctx.outbox.log(caller.accountId, {
        limit: options.limit,
        offset: 0,
      });
      printResult(Boolean(options.json), log, () =>
        table(
          log.map(({ delivery_id, batch_id, sequence, rows, target, attempts, status, last_error }) => ({
            delivery_id,
            batch_id,
            sequence,
            rows,
            target,
            attempts,
            status,
            last_error,
          })),
        ),
      );
    });
  deliveries
    .command('redeliver')
    .description('Send a delivered or dead-lettered batch again (same id and body)')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--delivery-id <id>', 'id of the delivery (see deliveries list)')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; deliveryId: string; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      const view = await ctx.outbox.redeliver(caller.accountId, options.deliveryId);
      printResult(
        Boolean(options.json),
        { ...view },
        () => `Delivery ${view.delivery_id} is queued again (run: deliveries run).`,
      );
    });
}
