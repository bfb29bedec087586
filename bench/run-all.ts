/**
 * Runs every bench/*.bench.ts in its own process, one after another (they would skew each
 * other side by side), and writes the RESULT lines to bench/RESULTS.md.
 * Usage: npm run bench [-- <name filter>]; the rows measured replace their earlier ones in bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * Machines of the same kind differ in their processors, and a ratio moves with them (hello-world
 * cost 11–13 µs per request on one, 16–30 µs on another): each row names the one it ran on.
 */
const CPU_MODEL = cpus()[0]?.model.trim() || 'unknown CPU';
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

const results: { line: string; measuredAt: string }[] = [];
let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const startedAt = new Date();
  const loadAtStart = loadavg()[0]!;
  const lines = await runBench(path.join(here, file));
  if (lines === null) failures++;
  else {
    const measuredAt = `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, load ${loadAtStart.toFixed(1)}–${loadavg()[0]!.toFixed(1)}, ${CPU_MODEL}`;
    results.push(...lines.map((line) => ({ line, measuredAt })));
  }
}

// Every run merges its rows into the recorded table: a row is replaced by a newer row of the same
// benchmark and keeps the time and load average it was measured at, so figures can be refreshed
// one benchmark at a time, in whatever quiet window the shared machine has.
const resultsFile = path.join(here, 'RESULTS.md');
/** Where the table ends: below it, the figures of earlier sessions (docs/benchmarks.md links them). */
const HISTORY_HEADING = '\n## History of the figures\n';
const rows = new Map(readRecordedRows(resultsFile));
// The figures of earlier sessions, kept below the table under their own heading, are carried over as they are.
const history = existsSync(resultsFile) ? historyOf(readFileSync(resultsFile, 'utf8')) : '';
for (const { line, measuredAt } of results) {
  const [, name = '', rest = ''] = /^RESULT (\S+) (.*)$/.exec(line) ?? [];
  if (name) rows.set(name, `| ${name} | ${rest} | ${measuredAt} |`);
}
writeFileSync(
  resultsFile,
  `# Latest benchmark figures\n\nOn ${process.platform} ${process.arch}, ${cpus().length} cores, Node ${process.version}. Each row carries when it was measured, the 1-minute load average at the start and end of its run (a load above the core count means other work shared the machine) and the processor's model name (rows older than 24 Nov 2026 20:00 UTC do not name it). \`npm run bench\` refreshes every row; \`npm run bench -- <name>\` refreshes that benchmark's rows only.\n\n` +
    "Throughput figures: the server under test and a bare Fastify hello-world each in its own process, `wrk` in a third, alternating rounds, medians; `-cpu` figures are hello-world's CPU per request ÷ ours, from each server process's own CPU counters; `-cpu-equal-load` rows (target none, INFO) repeat that with both servers paced to the same rate, half of ours flat out, to show how much of a gap is the kernel's cost of waking the load generator, which a slower server pays more often.\n\n" +
    `| benchmark | figures | measured |\n|---|---|---|\n${[...rows.keys()]
      .sort()
      .map((name) => rows.get(name))
      .join('\n')}\n${history}`,
);
console.log(`\n${results.map(({ line }) => line).join('\n')}`);
if (failures > 0) {
  console.error(`${failures} benchmark(s) failed`);
  process.exit(1);
}

function runBench(file: string): Promise<string[] | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const lines: string[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      buffer += chunk.toString();
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        if (line.startsWith('RESULT ')) lines.push(line);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
      }
    });
    child.on('exit', (code) => resolve(code === 0 ? lines : null));
  });
}

/** The rows of the recorded table by benchmark name; a row from before rows carried their time gets an empty one. */
function readRecordedRows(file: string): [string, string][] {
  if (!existsSync(file)) return [];
  return recordedTable(readFileSync(file, 'utf8'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| benchmark '))
    .map((line) => {
      const cells = line.split(' | ');
      const name = cells[0]!.slice(2);
      return [name, cells.length >= 3 ? line : `${line} |`] as [string, string];
    });
}

/** The part of RESULTS.md this script writes: everything above the history. */
function recordedTable(text: string): string {
  const at = text.indexOf(HISTORY_HEADING);
  return at === -1 ? text : text.slice(0, at);
}

/** The history below the table, with the blank line that separates it, or nothing. */
function historyOf(text: string): string {
  const at = text.indexOf(HISTORY_HEADING);
  return at === -1 ? '' : `\n${text.slice(at + 1)}`;
}
