import type { WatchedDomain } from '@repo/contracts/domain-intel';
import type { Command } from 'commander';
import type { AppContext } from '../context.ts';
import { callerOf } from './account-caller.ts';
import { jobRunner } from './job-runner.ts';
import { printJobOutcome, printResult, table } from './output.ts';

type GetContext = () => Promise<AppContext>;

const row = (watch: WatchedDomain) => ({
  domain: watch.domain,
  status: watch.status,
  expected_drop_at: watch.expected_drop_at,
  evidence: watch.evidence ? `${watch.evidence.source} ${watch.evidence.at}` : null,
  next_check_at: watch.next_check_at,
  paused: watch.paused ? 'paused' : '',
});

/** `watch add|remove|list|run`: an account's watchlist for scripting and operations. */
export function registerWatchCommands(program: Command, getContext: GetContext): void {
  const watch = program.command('watch').description('Domains an account watches through the drop lifecycle');
  watch
    .command('add')
    .description('Watch a domain (any TLD with RDAP, registered or not); prints its first look')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--domain <domain>', 'the name to watch')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; domain: string; json?: boolean }) => {
      const ctx = await getContext();
      const { watch: watched, added } = await ctx.watchlist.add(await callerOf(ctx, options.email), options.domain);
      printResult(Boolean(options.json), { ...watched, added }, () =>
        [
          `${added ? 'Watching' : 'Already watching'} ${watched.domain}: ${watched.status}` +
            (watched.expected_drop_at ? `, expected to drop ${watched.expected_drop_at}` : ''),
          `Next check ${watched.next_check_at}.`,
        ].join('\n'),
      );
    });
  watch
    .command('remove')
    .description('Stop watching a domain')
    .requiredOption('--email <email>', 'e-mail address of the account')
    .requiredOption('--domain <domain>', 'the watched name')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; domain: string; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      await ctx.watchlist.remove(caller.accountId, options.domain);
      printResult(
        Boolean(options.json),
        { domain: options.domain, removed: true },
        () => `No longer watching ${options.domain}.`,
      );
    });
  watch
    .command('list')
    .description("An account's watched domains with status, expected drop and last evidence")
    .requiredOption('--email <email>', 'e-mail address of the account')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      const ctx = await getContext();
      const caller = await callerOf(ctx, options.email);
      const { watches } = await ctx.watchlist.list(caller, { limit: caller.plan.maxWatchedDomains, offset: 0 });
      printResult(Boolean(options.json), watches, () => table(watches.map(row)));
    });
  watch
    .command('run')
    .description('Follow every watched name now: lifecycle evidence, then the RDAP re-checks that are due')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const ctx = await getContext();
      printJobOutcome(
        Boolean(options.json),
        await (await jobRunner()).runJob(ctx, 'watchlist'),
        (r) =>
          `Watchlist: ${r.lifecycle} lifecycle updates, ${r.checked} RDAP checks (${r.unknown} without answer), ` +
          `${r.zone} found in the zone, ${r.transitions} transitions, ${r.skipped} left for the next round`,
        'Watchlist',
      );
    });
}
