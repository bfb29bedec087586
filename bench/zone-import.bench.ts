/**
 * Zone import at `.com` size: a synthetic CZDS-style gzip zone (SOA and apex NS, two NS per
 * delegated name, glue A/AAAA for some, DS for some, names in random order) imported by the real
 * CLI, `domain-intel zones import`, in a process of its own, against the shell pipeline people
 * would otherwise run on the same file,
 * `zcat F | awk '$4=="ns"{print $1}' | LC_ALL=C sort -u | gzip`, with each side's peak RSS
 * (GNU time's %M: the largest process of the side). Both sides' outputs are compared name by name.
 * Sizes: BENCH_ZONE_IMPORT_SIZES (default 5000000,20000000 names). Reports time against the shell,
 * peak RSS against 512 MB, how time grows with size, and the extrapolation to 160 M names.
 * The CLI is bundled first (`npm run build`), as it is run in production.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { seededRandom } from '@repo/upstream-sim';
import { report } from './lib/harness.ts';
import { prefix, tail } from './lib/synthetic-snapshots.ts';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(here, '..', 'apps', 'domain-intel', 'bin', 'domain-intel.js');
const CLI_BUNDLER = path.join(here, '..', 'apps', 'domain-intel', 'bin', 'cli-bundle.mjs');
const COM_NAMES = 160_000_000;
const RSS_LIMIT_MB = 512;

interface Timed {
  ms: number;
  peakRssMb: number;
  /** User + system CPU of the command and all its processes: far steadier than wall time on a shared machine. */
  cpuS: number;
}

/** A zone in the shape CZDS serves: `owner. ttl in type rdata`, lower case, tab separated. */
async function writeZone(file: string, size: number): Promise<void> {
  const random = seededRandom(size + 7);
  // Random order without holding the names: visit indexes by a multiplicative permutation.
  const step = coprimeStep(size);
  function* lines(): Generator<string> {
    let batch = [
      'com.\t900\tin\tsoa\ta.gtld-servers.net. nstld.verisign-grs.com. 1763900000 1800 900 604800 86400',
      'com.\t172800\tin\tns\ta.gtld-servers.net.',
      'com.\t172800\tin\tns\tb.gtld-servers.net.',
    ].join('\n');
    for (let i = 0, index = 0; i < size; i++, index = (index + step) % size) {
      // A label may not end with a hyphen; the importer rightly skips such owners.
      const name = `${prefix(index)}${tail(random).replace(/-+$/, '')}.com.`;
      const host = Math.floor(random() * 5000);
      batch += `\n${name}\t172800\tin\tns\tns${host}.hosting${host % 97}.net.\n${name}\t172800\tin\tns\tns${host + 1}.hosting${host % 97}.net.`;
      const roll = random();
      if (roll < 0.03) batch += `\nns1.${name}\t172800\tin\ta\t192.0.2.${host % 250}`;
      if (roll < 0.01) batch += `\nns1.${name}\t172800\tin\taaaa\t2001:db8::${host.toString(16)}`;
      if (roll > 0.96) batch += `\n${name}\t86400\tin\tds\t${host} 13 2 ${'ab'.repeat(32)}`;
      if (batch.length > 1 << 16) {
        yield `${batch}\n`;
        batch = '';
      }
    }
    yield `${batch}\n`;
  }
  await pipeline(Readable.from(lines()), createGzip({ level: 6 }), createWriteStream(file));
}

/** The 1-minute load average: the machine is shared, so every figure says how busy it was. */
function loadAverage(): string {
  return loadavg()[0]!.toFixed(1);
}

function coprimeStep(size: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = Math.floor(size * 0.618_033_988_7) | 1;
  while (gcd(step, size) !== 1) step += 2;
  return step;
}

/** Runs a command under GNU time; its wall time, CPU time and the peak RSS of its largest process. */
async function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Timed> {
  const start = performance.now();
  const { stderr } = await run('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M CPU_S=%U+%S', command, ...args], {
    env,
    maxBuffer: 16 << 20,
  });
  const ms = performance.now() - start;
  const peak = /PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1];
  const cpu = /CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
  if (!peak || !cpu) throw new Error(`GNU time printed no peak RSS or CPU time: ${stderr}`);
  return { ms, peakRssMb: Number(peak) / 1024, cpuS: Number(cpu[1]) + Number(cpu[2]) };
}

async function importWithCli(root: string, zone: string, date: string): Promise<Timed & { names: number }> {
  const dataDir = path.join(root, `data-${date}`);
  // The embedded default, as the issue measures it: without this, a DATABASE_URL in the benchmark's own
  // environment sent the CLI's records to that server, into the default schema of its shared database, and left them there.
  const { DATABASE_URL: _database, POSTGRES_SCHEMA: _schema, REDIS_URL: _redis, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const figures = await timed(
    process.execPath,
    [CLI, 'zones', 'import', '--tld', 'com', '--file', zone, '--date', date, '--json'],
    env,
  );
  const { stdout } = await run(process.execPath, [CLI, 'zones', 'list', '--json'], { env });
  const names = (JSON.parse(stdout) as { names: number }[])[0]?.names ?? 0;
  return { ...figures, names };
}

async function main(): Promise<void> {
  await run(process.execPath, [CLI_BUNDLER]);
  const sizes = (process.env.BENCH_ZONE_IMPORT_SIZES ?? '5000000,20000000').split(',').map(Number);
  const points: { size: number; ms: number; shellMs: number; peakRssMb: number }[] = [];
  for (const size of sizes) {
    const root = mkdtempSync(path.join(tmpdir(), 'zone-import-bench-'));
    try {
      const zone = path.join(root, 'com.zone.gz');
      await writeZone(zone, size);
      const loadBefore = loadAverage();
      const ours = await importWithCli(root, zone, '2026-03-10');
      const shellOut = path.join(root, 'shell.txt.gz');
      const shell = await timed('bash', [
        '-c',
        `set -o pipefail; zcat '${zone}' | awk '$4=="ns"{print $1}' | LC_ALL=C sort -u | gzip > '${shellOut}'`,
      ]);
      const { stdout: shellCount } = await run('bash', ['-c', `zcat '${shellOut}' | grep -vc '^com\\.$'`]);
      const expected = Number(shellCount.trim());
      if (ours.names !== expected) throw new Error(`imported ${ours.names} names; the shell found ${expected}`);
      points.push({ size, ms: ours.ms, shellMs: shell.ms, peakRssMb: ours.peakRssMb });
      const label = `${size / 1_000_000}m`;
      const details = {
        names: size,
        import_s: (ours.ms / 1000).toFixed(1),
        shell_s: (shell.ms / 1000).toFixed(1),
        peak_rss_mb: ours.peakRssMb.toFixed(0),
        shell_peak_rss_mb: shell.peakRssMb.toFixed(0),
        names_per_s: Math.round(size / (ours.ms / 1000)),
        import_cpu_s: ours.cpuS.toFixed(1),
        shell_cpu_s: shell.cpuS.toFixed(1),
        cpu_ratio: (ours.cpuS / shell.cpuS).toFixed(2),
        load_before: loadBefore,
        load_after: loadAverage(),
      };
      report({ name: `zone-import-${label}-vs-shell`, ratio: ours.ms / shell.ms, target: '<= 1', details });
      report({
        name: `zone-import-${label}-rss`,
        ratio: ours.peakRssMb / RSS_LIMIT_MB,
        target: '<= 1',
        details: { peak_rss_mb: ours.peakRssMb.toFixed(0) },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const first = points[0]!;
  const last = points.at(-1)!;
  // A straight line through the two sizes: its intercept is the fixed cost (start-up, migrations),
  // its slope the cost per name. The external sort's merge adds a log factor in the number of
  // runs, small next to reading and sorting; the line is checked by the per-name cost staying put.
  const slopeMs = points.length > 1 ? (last.ms - first.ms) / (last.size - first.size) : last.ms / last.size;
  const fixedMs = Math.max(0, last.ms - slopeMs * last.size);
  const comMs = fixedMs + slopeMs * COM_NAMES;
  report({
    name: 'zone-import-com-extrapolated',
    ratio: comMs / 60_000 / 20,
    target: '<= 1',
    details: {
      com_names: COM_NAMES,
      com_minutes: (comMs / 60_000).toFixed(1),
      fixed_s: (fixedMs / 1000).toFixed(1),
      us_per_name: (slopeMs * 1000).toFixed(2),
      shell_us_per_name: ((last.shellMs / last.size) * 1000).toFixed(2),
      rss_growth: (last.peakRssMb / first.peakRssMb).toFixed(2),
    },
  });
}

if (process.argv[2] === '--write-zone') {
  // `tsx bench/zone-import.bench.ts --write-zone F SIZE`: only write a zone, e.g. to profile an import.
  await writeZone(process.argv[3]!, Number(process.argv[4]));
} else {
  await main();
}
