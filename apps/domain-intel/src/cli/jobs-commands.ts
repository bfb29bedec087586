import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { cliValue } from '@repo/server-kit/cli';
import { errorMessage } from '@repo/server-kit/errors';
import type { Command } from 'commander';
import type { AppContext } from '../context.ts';
import type { LeasedOutcome } from '../jobs/lease.ts';
import type { DailyReport, DeliveryRunReport, HourlyReport } from '../jobs/pipeline.ts';
import { assertSnapshotDate } from '../zones/validation.ts';
import { jobRunner } from './job-runner.ts';
import { table } from './output.ts';

type GetContext = () => Promise<AppContext>;

export interface JobsCliOutput {
  stdout: Writable;
  stderr: NodeJS.WriteStream | Writable;
}

const dateOption = cliValue(assertSnapshotDate);

export function describeDaily(report: DailyReport): string {
  const rows = report.tlds.map((tld) => ({
    tld: tld.tld,
    snapshot: tld.snapshot,
    names: tld.names,
    compared_with: tld.diff?.fromDate ?? (tld.error ? null : 'first snapshot'),
    left_zone: tld.diff?.removed,
    entered_zone: tld.diff?.added,
    transitions: tld.diff?.transitions,
    error: tld.error,
  }));
  return `Daily pipeline for ${report.date}\n${table(rows)}\nalt-TLD demand refreshed for ${report.altTldRows} feed rows\n${describeDeliveries(report.deliveries)}`;
}

export function describeDeliveries(outcome: LeasedOutcome<DeliveryRunReport>): string {
  if (outcome.status === 'skipped') return `Deliveries: skipped, running in ${outcome.heldBy ?? 'another process'}`;
  const { matched, sent } = outcome.result;
  return (
    `Deliveries: ${matched.rows} new rows for ${matched.filters} saved filters; ` +
    `${sent.delivered} delivered, ${sent.retrying} to retry, ${sent.dead} dead-lettered`
  );
}

export function describeHourly(report: HourlyReport): string {
  const { rdap, enrichment } = report;
  return [
    `RDAP re-checks: ${rdap.checked} checked, ${rdap.transitions} transitions (${rdap.dropped} verified drops), ` +
      `${rdap.unknown} without answer, ${rdap.skipped} left for the next run`,
    `Enrichment: ${enrichment.enriched} rows enriched, ${enrichment.deferred} deferred`,
    ...enrichment.errors.map((error) => `  ${error}`),
    describeDeliveries(report.deliveries),
  ].join('\n');
}

/**
 * `domain-intel pipeline daily|hourly` (run a job once, with progress on a terminal) and
 * `domain-intel worker` (run the scheduled jobs from BullMQ until stopped).
 */
export function registerJobsCommands(
  program: Command,
  getContext: GetContext,
  output: JobsCliOutput = { stdout: process.stdout, stderr: process.stderr },
): void {
  const report = <T>(outcome: LeasedOutcome<T>, describe: (result: T) => string, failed: (result: T) => boolean) => {
    if (outcome.status === 'skipped') {
      output.stderr.write(`Skipped: the job is already running (${outcome.heldBy ?? 'another process'}).\n`);
      process.exitCode = 75;
      return;
    }
    output.stdout.write(`${describe(outcome.result)}\n`);
    if (failed(outcome.result)) process.exitCode = 1;
  };
  // Loaded on use: the progress bar's library is no part of the other commands' start-up.
  const progress = async () =>
    (await import('../jobs/progress.ts')).terminalProgress(output.stderr as NodeJS.WriteStream);

  const pipeline = program.command('pipeline').description('Run a step of the dropped-domain pipeline once');
  pipeline
    .command('daily')
    .description('Download and snapshot the tracked zones, diff them, update the lifecycle (the 06:00 UTC job)')
    .option('--date <YYYY-MM-DD>', 'UTC date of the zones (default: today)', dateOption)
    .action(async (options: { date?: string }) => {
      const ctx = await getContext();
      const outcome = await (await jobRunner()).runJob(ctx, 'daily', {
        ...(options.date ? { date: options.date } : {}),
        progress: await progress(),
      });
      report(outcome, describeDaily, (result) => result.tlds.some((tld) => tld.error !== null));
    });
  pipeline
    .command('hourly')
    .description('RDAP re-checks of the candidates that are due, then enrichment (the hourly job)')
    .action(async () => {
      const ctx = await getContext();
      report(
        await (await jobRunner()).runJob(ctx, 'hourly', { progress: await progress() }),
        describeHourly,
        () => false,
      );
    });

  program
    .command('worker')
    .description('Run the daily and hourly jobs on BullMQ (needs REDIS_URL or REDIS_CLUSTER_URLS) until SIGINT/SIGTERM')
    .action(async () => {
      const ctx = await getContext();
      if (!ctx.config.REDIS_URL && !ctx.config.REDIS_CLUSTER_URLS) {
        output.stderr.write(
          'The worker runs jobs from BullMQ and needs REDIS_URL or REDIS_CLUSTER_URLS; without it the API runs them itself.\n',
        );
        process.exitCode = 2;
        return;
      }
      const log = {
        info: (message: string) => output.stdout.write(`${new Date().toISOString()} ${message}\n`),
        error: (error: unknown, message: string) =>
          output.stderr.write(`${new Date().toISOString()} ${message}: ${errorMessage(error)}\n`),
      };
      const worker = await (await import('../jobs/bullmq.ts')).startBullmqWorker(ctx, log);
      log.info('worker started: daily at 06:00 UTC, hourly at :30, deliveries every minute, watchlist every 5 minutes');
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      log.info('stopping: finishing the job in progress');
      await worker.close();
    });
}
