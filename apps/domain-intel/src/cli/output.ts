import type { LeasedOutcome } from '../jobs/lease.ts';

/**
 * Prints the outcome of a job run under its lease: the report when it ran, or who holds the
 * lease when it was skipped (exit code 75, EX_TEMPFAIL: try again later).
 */
export function printJobOutcome<T extends object>(
  json: boolean,
  outcome: LeasedOutcome<T>,
  describe: (result: T) => string,
  jobName: string,
): void {
  if (outcome.status === 'skipped') process.exitCode = 75;
  printResult(
    json,
    outcome.status === 'completed'
      ? { status: 'completed', ...outcome.result }
      : { status: 'skipped', held_by: outcome.heldBy },
    () =>
      outcome.status === 'completed'
        ? describe(outcome.result)
        : `${jobName}: skipped, running in ${outcome.heldBy ?? 'another process'}`,
  );
}

/** Prints a result for people, or as one JSON value with `--json` for scripts. */
export function printResult(json: boolean, value: Record<string, unknown> | unknown[], human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? '—')));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: string[]) => values.map((value, i) => value.padEnd(widths[i]!)).join('  ');
  return [line(columns), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
