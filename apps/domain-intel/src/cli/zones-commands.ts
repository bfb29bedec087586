import { once } from 'node:events';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { cliValue, requireReadableFile } from '@repo/server-kit/cli';
import { utcDate } from '@repo/server-kit/clock';
import type { Command } from 'commander';
import { isZoneError } from '../zones/errors.ts';
import { diffSnapshots } from '../zones/snapshot-diff.ts';
import { assertSnapshotDate, normalizeTld } from '../zones/validation.ts';
import type { ZoneImportResult } from '../zones/zone-import.ts';
import type { ZonesContext } from '../zones-context.ts';
import { table } from './output.ts';

type GetContext = () => Promise<ZonesContext>;

/** Where the commands print; tests pass their own streams. */
export interface ZonesCliOutput {
  stdout: Writable;
  stderr: Writable;
}

const tldOption = cliValue(normalizeTld);
const dateOption = cliValue(assertSnapshotDate);
const collectTlds = (value: string, previous: string[] = []) => [...previous, tldOption(value)];

const describeImport = (result: ZoneImportResult) =>
  result.status === 'imported'
    ? `.${result.tld} ${result.date}: imported ${result.names} names`
    : `.${result.tld} ${result.date}: already imported (${result.names} names), nothing to do`;

/** `domain-intel zones …`: import local zone files, sync from CZDS, list and diff snapshots. */
export function registerZonesCommands(
  program: Command,
  getContext: GetContext,
  output: ZonesCliOutput = { stdout: process.stdout, stderr: process.stderr },
): void {
  /** A result for people, or one JSON value with `--json` for scripts. */
  const printResult = (json: boolean, value: unknown, human: () => string) =>
    output.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
  const zones = program.command('zones').description('Zone files and daily snapshots');

  zones
    .command('import')
    .description('Import a local zone file (gzip or plain master file) as the snapshot of a TLD and date')
    .requiredOption('--tld <tld>', 'the zone the file holds, e.g. com', tldOption)
    .requiredOption('--file <file>', 'path of the zone file')
    .option('--date <date>', 'snapshot date YYYY-MM-DD (default: today, UTC)', dateOption)
    .option('--json', 'print JSON')
    .action(async (options: { tld: string; file: string; date?: string; json?: boolean }) => {
      // Before anything else: a mistyped path must not read as "already imported" for a date that is held.
      await requireReadableFile(options.file, 'zone file');
      const ctx = await getContext();
      const date = options.date ?? utcDate(ctx.clock.now());
      const result = await ctx.zones.importZoneFile({ tld: options.tld, file: path.resolve(options.file), date });
      printResult(Boolean(options.json), { ...result }, () => describeImport(result));
    });

  zones
    .command('sync')
    .description('Download from CZDS and import the zones of the tracked TLDs (at most once per TLD per 24 h)')
    .option('--tld <tld>', 'only this TLD (repeatable; default: TRACKED_TLDS)', collectTlds)
    .option('--date <date>', 'snapshot date YYYY-MM-DD (default: today, UTC)', dateOption)
    .option('--json', 'print JSON')
    .action(async (options: { tld?: string[]; date?: string; json?: boolean }) => {
      const ctx = await getContext();
      const date = options.date ?? utcDate(ctx.clock.now());
      const results: Array<ZoneImportResult | { tld: string; date: string; error: { code: string; message: string } }> =
        [];
      // One TLD failing (limit reached, corrupt file) must not stop the others.
      for (const tld of options.tld ?? ctx.zones.trackedTlds) {
        try {
          const result = await ctx.zones.syncTld(tld, date);
          results.push(result);
          if (!options.json) output.stdout.write(`${describeImport(result)}\n`);
        } catch (error) {
          if (!isZoneError(error)) throw error;
          results.push({ tld, date, error: { code: error.code, message: error.message } });
          if (!options.json) output.stderr.write(`.${tld} ${date}: failed (${error.code}): ${error.message}\n`);
        }
      }
      if (options.json) printResult(true, results, () => '');
      if (results.some((result) => 'error' in result)) process.exitCode = 1;
    });

  zones
    .command('list')
    .description('List the imported snapshots with their name counts')
    .option('--tld <tld>', 'only this TLD', tldOption)
    .option('--json', 'print JSON')
    .action(async (options: { tld?: string; json?: boolean }) => {
      const ctx = await getContext();
      const rows = await ctx.zones.listSnapshots(options.tld);
      printResult(Boolean(options.json), rows, () =>
        table(
          rows.map((row) => ({
            tld: row.tld,
            date: row.date,
            names: row.names,
            bytes: row.bytes,
            source: row.source,
            imported_at: new Date(row.imported_at).toISOString(),
          })),
        ),
      );
    });

  zones
    .command('diff')
    .description('Stream the names that left (-) or entered (+) a zone between two snapshots')
    .requiredOption('--tld <tld>', 'the TLD', tldOption)
    .requiredOption('--from <date>', 'older snapshot date', dateOption)
    .requiredOption('--to <date>', 'newer snapshot date', dateOption)
    .option('--json', 'print one JSON object per line')
    .action(async (options: { tld: string; from: string; to: string; json?: boolean }) => {
      const ctx = await getContext();
      for await (const { name, change } of diffSnapshots(ctx.snapshots, options.tld, options.from, options.to)) {
        const line = options.json ? JSON.stringify({ name, change }) : `${change === 'removed' ? '-' : '+'} ${name}`;
        if (!output.stdout.write(`${line}\n`)) await once(output.stdout, 'drain');
      }
    });
}
