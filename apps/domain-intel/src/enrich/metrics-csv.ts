import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { parseDomain } from '../domain/normalize.ts';

export interface MetricsRow {
  domain: string;
  da: number | null;
  tf: number | null;
}

export interface CsvProblem {
  line: number;
  message: string;
}

/** A CSV that cannot be imported; nothing of it was written. */
export class MetricsCsvError extends Error {
  constructor(readonly problems: CsvProblem[]) {
    super(
      `The metrics file has ${problems.length === MAX_PROBLEMS ? 'at least ' : ''}${problems.length} invalid row(s):\n` +
        problems.map((problem) => `  line ${problem.line}: ${problem.message}`).join('\n'),
    );
    this.name = 'MetricsCsvError';
  }
}

const MAX_PROBLEMS = 20;
const REQUIRED_COLUMNS = ['domain', 'da', 'tf'];

function metric(value: string | undefined, name: string): number | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (!/^\d{1,3}$/.test(text) || Number(text) > 100)
    throw new Error(`${name} must be a whole number from 0 to 100, got "${text}"`);
  return Number(text);
}

/**
 * Reads `domain,da,tf` rows (header required, extra columns ignored, empty metric = unknown)
 * and yields them in batches. Validates everything; any bad row fails the whole file with a
 * list of the problems, after reading it to the end so the user sees them all at once (up to 20).
 */
export async function* readMetricsCsv(input: Readable, batchSize = 500): AsyncGenerator<MetricsRow[]> {
  const parser = input.pipe(
    parse({
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      // Each record comes with its own position: the parser reads ahead of the consumer.
      info: true,
    }),
  );
  const problems: CsvProblem[] = [];
  let batch: MetricsRow[] = [];
  let checkedHeader = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      const line = info.lines;
      if (!checkedHeader) {
        const missing = REQUIRED_COLUMNS.filter((column) => !(column in record));
        if (missing.length > 0)
          throw new MetricsCsvError([{ line: 1, message: `missing column(s): ${missing.join(', ')}` }]);
        checkedHeader = true;
      }
      try {
        const parsed = parseDomain(record.domain);
        if (!parsed.ok) throw new Error(parsed.error.message);
        batch.push({ domain: parsed.domain.name, da: metric(record.da, 'da'), tf: metric(record.tf, 'tf') });
      } catch (error) {
        if (problems.length < MAX_PROBLEMS) problems.push({ line, message: (error as Error).message });
        continue;
      }
      if (batch.length >= batchSize && problems.length === 0) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof MetricsCsvError) throw error;
    throw new MetricsCsvError([{ line: parser.info.lines, message: (error as Error).message }]);
  }
  if (problems.length > 0) throw new MetricsCsvError(problems);
  if (batch.length > 0) yield batch;
}
