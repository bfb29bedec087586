/**
 * Zone diff: the streaming merge of two daily snapshots (gzip, sorted, one name per line, the
 * format the zones module stores) against the shell pipeline people would otherwise run,
 * `LC_ALL=C comm -3 <(zcat a | sort -u) <(zcat b | sort -u)`, and against plain `zcat` of both
 * files (the floor: just decompressing them), on the same files in the same run.
 * Sizes: BENCH_ZONE_DIFF_SIZES (default 2000000,10000000 names); day two drops and adds ~0.5%.
 * The merge runs in a child process so its peak RSS is its own (must not grow with the zone).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FileSnapshotStore } from '../apps/domain-intel/src/zones/file-snapshot-store.ts';
import { diffSnapshots } from '../apps/domain-intel/src/zones/snapshot-diff.ts';
import { report } from './lib/harness.ts';
import { writeSnapshotPair } from './lib/synthetic-snapshots.ts';

const run = promisify(execFile);
const OLDER = '2026-03-09';
const NEWER = '2026-03-10';
const CHURN = 0.005;

interface MergeFigures {
  ms: number;
  changes: number;
  peakRssMb: number;
  /** Peak RSS before the diff started: Node, tsx and the loaded modules. */
  startRssMb: number;
}

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_ZONE_DIFF_SIZES ?? '2000000,10000000').split(',').map(Number);
  const peaks: number[] = [];
  for (const size of sizes) {
    const root = mkdtempSync(path.join(tmpdir(), 'zone-diff-bench-'));
    try {
      const { changes: expectedChanges } = await writeSnapshotPair(path.join(root, 'com'), {
        size,
        churn: CHURN,
        older: OLDER,
        newer: NEWER,
      });
      const older = path.join(root, 'com', `${OLDER}.txt.gz`);
      const newer = path.join(root, 'com', `${NEWER}.txt.gz`);
      const runs = size > 5_000_000 ? 1 : 3;
      const merges: MergeFigures[] = [];
      const shell: number[] = [];
      const floor: number[] = [];
      // Alternate the three so a burst of load elsewhere on the machine hits all of them.
      for (let round = 0; round < runs; round++) {
        merges.push(await mergeInChild(root));
        shell.push(
          await timeShell(
            `LC_ALL=C comm -3 <(zcat '${older}' | LC_ALL=C sort -u) <(zcat '${newer}' | LC_ALL=C sort -u) > /dev/null`,
          ),
        );
        floor.push(await timeShell(`zcat '${older}' '${newer}' > /dev/null`));
      }
      const merge = median(merges.map((figures) => figures.ms));
      const changes = merges[0]!.changes;
      if (changes !== expectedChanges) throw new Error(`diff found ${changes} changes, expected ${expectedChanges}`);
      const peak = Math.max(...merges.map((figures) => figures.peakRssMb));
      peaks.push(peak);
      const label = `${size / 1_000_000}m`;
      const details = {
        names: size,
        changes,
        merge_ms: merge,
        shell_ms: median(shell),
        zcat_ms: median(floor),
        peak_rss_mb: peak,
        runs,
      };
      report({ name: `zone-diff-${label}-vs-shell`, ratio: merge / median(shell), target: '< 1', details });
      report({ name: `zone-diff-${label}-vs-zcat`, ratio: merge / median(floor), target: '<= 2', details });
      report({
        name: `zone-diff-${label}-rss`,
        ratio: peak / 256,
        target: '< 1',
        details: { peak_rss_mb: peak, rss_before_diff_mb: merges[0]!.startRssMb },
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  if (peaks.length > 1) {
    report({
      name: 'zone-diff-rss-growth',
      ratio: peaks.at(-1)! / peaks[0]!,
      target: '<= 1.25',
      details: { sizes: sizes.join('/'), peak_rss_mb: peaks.map((peak) => peak.toFixed(0)).join('/') },
    });
  }
}

async function mergeInChild(root: string): Promise<MergeFigures> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--merge', root], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as MergeFigures;
}

async function timeShell(command: string): Promise<number> {
  const start = performance.now();
  await run('bash', ['-c', `set -o pipefail; ${command}`]);
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

if (process.argv[2] === '--merge') {
  // Child mode: one diff, timed, with the kernel's peak RSS of this process.
  const store = new FileSnapshotStore(process.argv[3]!);
  const startRssMb = process.resourceUsage().maxRSS / 1024;
  const start = performance.now();
  let changes = 0;
  for await (const _change of diffSnapshots(store, 'com', OLDER, NEWER)) changes++;
  const figures: MergeFigures = {
    ms: performance.now() - start,
    changes,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    startRssMb,
  };
  process.stdout.write(JSON.stringify(figures));
} else {
  await main();
}
