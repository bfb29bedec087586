/**
 * Runs every bench/*.bench.ts in its own process, one after another (they would skew each
 * other side by side), and writes the RESULT lines to bench/RESULTS.md.
 * Usage: npm run bench [-- <name filter>]; only a full run rewrites bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

const loadAtStart = loadavg()[0]!;
const results: string[] = [];
let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const lines = await runBench(path.join(here, file));
  if (lines === null) failures++;
  else results.push(...lines);
}

// Only a full run replaces the recorded figures; a filtered run just prints its own.
const table = results.map((line) => {
  const [, name = '', rest = ''] = /^RESULT (\S+) (.*)$/.exec(line) ?? [];
  return `| ${name} | ${rest} |`;
});
if (filters.length === 0)
  writeFileSync(
    path.join(here, 'RESULTS.md'),
    `# Latest benchmark figures\n\nMeasured ${new Date().toISOString()} on ${process.platform} ${process.arch}, ${cpus().length} cores, Node ${process.version}; ` +
      `1-minute load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end (a load above the core count means other work shared the machine).\n\n` +
      "Throughput figures: the server under test and a bare Fastify hello-world each in its own process, `wrk` in a third, alternating rounds, medians; `-cpu` figures are hello-world's CPU per request ÷ ours, from each server process's own CPU counters.\n\n" +
      `| benchmark | figures |\n|---|---|\n${table.join('\n')}\n`,
  );
console.log(`\n${results.join('\n')}`);
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
