import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { AppContext } from '../context.ts';

type GetContext = () => Promise<AppContext>;

/** `domain-intel metrics import --file F.csv`: DA/TF a user already exports (columns domain,da,tf). */
export function registerEnrichCommands(
  program: Command,
  getContext: GetContext,
  output: { stdout: Writable; stderr: Writable } = { stdout: process.stdout, stderr: process.stderr },
): void {
  const metrics = program.command('metrics').description('SEO metrics (DA, TF) of feed domains');
  metrics
    .command('import')
    .description('Import DA and TF from a CSV with the columns domain,da,tf (all rows or none)')
    .requiredOption('--file <path>', 'CSV file (header row required; an empty value means unknown)')
    .action(async (options: { file: string }) => {
      try {
        await access(options.file);
      } catch {
        output.stderr.write(`Cannot read ${options.file}: no such file, or not readable.\n`);
        process.exitCode = 2;
        return;
      }
      const ctx = await getContext();
      // Loaded on use: the CSV parser is no part of the other commands' start-up.
      const { MetricsCsvError } = await import('../enrich/metrics-csv.ts');
      try {
        const result = await ctx.enrichment.importMetricsCsv(createReadStream(options.file));
        await ctx.feed.invalidate();
        output.stdout.write(
          `Imported metrics of ${result.rows} domains (${result.feedRows} of them in the feed now).\n`,
        );
      } catch (error) {
        if (!(error instanceof MetricsCsvError)) throw error;
        output.stderr.write(`${error.message}\nNothing was imported.\n`);
        process.exitCode = 1;
      }
    });
}
