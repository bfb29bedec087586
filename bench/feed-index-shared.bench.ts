/**
 * One copy of the feed index per host: N API processes (FEED_SHARED_PROCESSES, default 3) each
 * mapping one snapshot file of a FEED_SHARED_ROWS-row index (default 1 M; rows as
 * bench/domains-feed-rows.ts makes them, in memory), against the baseline measured in the same run:
 * each process building its own index from the same rows, as before FEED_INDEX_DIR.
 *
 * Each mode runs its N processes at once. Every process then reads every page of its index once
 * (a server's index is warm after its first queries: a page never read costs no memory, which
 * would flatter the mapped file) and answers a few pages, and the parent reads each process's
 * proportional set size (Pss, /proc/<pid>/smaps_rollup: a page shared by k processes counts 1/k
 * in each, so the processes' Pss add up to what the host holds) and checks in /proc/<pid>/maps
 * that the snapshot is mapped.
 * Figures: the host's total Pss shared ÷ unshared (the ratio), per-process Pss of each mode, and
 * start to the first page answered from the index (process start → first page): mapping the
 * snapshot against building from the rows (the rows are made in memory here; a real start also
 * loads them from the database first, 31–36 s at 1 M rows at load ~20, docs/design/feed-index.md).
 * The load average is printed: the machine's 2 cores are shared.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FeedIndex, parseFeedFilters } from '@repo/feed-index';
import { feedBenchChunks, releaseFeedBenchLabels } from './domains-feed-rows.ts';
import { report } from './lib/harness.ts';

const ROWS = Number(process.env.FEED_SHARED_ROWS ?? 1_000_000);
const PROCESSES = Number(process.env.FEED_SHARED_PROCESSES ?? 3);
const NOW = Date.UTC(2026, 10, 28);
type Mode = 'mapped' | 'own';

interface ChildFigures {
  mode: Mode;
  /** From the process's start (node and tsx loading included) to its first page answered from the index. */
  firstPageMs: number;
  /** From having nothing (no index, the rows not made) to that first page. */
  indexToPageMs: number;
  indexMb: number;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** In a child: the index (mapped from `file`, or built from the rows), warmed, a first page; then it waits for the parent. */
async function child(mode: Mode, file: string): Promise<void> {
  const started = performance.now();
  let index: FeedIndex;
  if (mode === 'mapped') {
    index = FeedIndex.fromSnapshot(file, { cachedFilters: 16 }).index;
  } else {
    const chunks = feedBenchChunks(ROWS, NOW);
    releaseFeedBenchLabels();
    index = FeedIndex.fromColumns(chunks.state(), 1, { cachedFilters: 16 });
  }
  const every = parseFeedFilters({ status: 'any' }, []);
  index.page(every, { sort: 'dropped_at', limit: 100, offset: 0 }, NOW);
  const firstPageMs = performance.now();
  const indexToPageMs = firstPageMs - started;
  // Warm: every page of every typed array read once (the server's steady state after its first
  // queries), here by writing the index out (the one way to read all its parts without reaching inside).
  await index.writeSnapshot(path.join(path.dirname(file), `warm-${process.pid}.tmp-snapshot`));
  for (const sort of ['da', 'tf', 'age'] as const) {
    index.page(
      parseFeedFilters({ status: 'any', contains: 'ing', min_da: '10' }, []),
      { sort, limit: 100, offset: 1_000 },
      NOW,
    );
  }
  globalThis.gc?.();
  process.stdout.write(
    `READY ${JSON.stringify({ mode, firstPageMs, indexToPageMs, indexMb: index.bytes / 1e6 } satisfies ChildFigures)}\n`,
  );
  // Stays until the parent has read its memory and closes stdin.
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

/** N processes of one mode at once; their figures and Pss while all are alive. */
async function runMode(
  mode: Mode,
  file: string,
): Promise<{ figures: ChildFigures[]; pssMb: number[]; mapsFile: boolean[] }> {
  const children = Array.from({ length: PROCESSES }, () =>
    spawn(process.execPath, ['--import', 'tsx', '--expose-gc', fileURLToPath(import.meta.url)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, FEED_SHARED_CHILD: JSON.stringify({ mode, file }) },
    }),
  );
  const figures = await Promise.all(
    children.map(
      (spawned) =>
        new Promise<ChildFigures>((resolve, reject) => {
          let output = '';
          spawned.stdout!.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            const line = output.split('\n').find((candidate) => candidate.startsWith('READY '));
            if (line) resolve(JSON.parse(line.slice('READY '.length)) as ChildFigures);
          });
          spawned.on('exit', (code) => reject(new Error(`a ${mode} process stopped (exit code ${code})`)));
        }),
    ),
  );
  const pssMb = children.map((spawned) => {
    const rollup = readFileSync(`/proc/${spawned.pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)![1]) / 1024;
  });
  const mapsFile = children.map((spawned) =>
    readFileSync(`/proc/${spawned.pid}/maps`, 'utf8')
      .split('\n')
      .some((line) => line.endsWith(file)),
  );
  await Promise.all(
    children.map(
      (spawned) =>
        new Promise<void>((resolve) => {
          spawned.removeAllListeners('exit');
          spawned.once('exit', () => resolve());
          spawned.stdin!.end();
        }),
    ),
  );
  return { figures, pssMb, mapsFile };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'feed-index-shared-'));
  try {
    console.log(`${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load ${load()}`);
    const file = path.join(dir, 'feed-index.snapshot');
    const startedWriting = performance.now();
    const chunks = feedBenchChunks(ROWS, NOW);
    releaseFeedBenchLabels();
    const built = FeedIndex.fromColumns(chunks.state(), 1);
    await built.writeSnapshot(file, { rows: ROWS });
    console.log(
      `snapshot of ${ROWS} rows written in ${((performance.now() - startedWriting) / 1000).toFixed(1)} s (rows made, built, written); load ${load()}`,
    );
    const own = await runMode('own', file);
    console.log(`own: Pss ${own.pssMb.map((mb) => mb.toFixed(0)).join(' / ')} MB; load ${load()}`);
    const mapped = await runMode('mapped', file);
    console.log(
      `mapped: Pss ${mapped.pssMb.map((mb) => mb.toFixed(0)).join(' / ')} MB, file in maps ${mapped.mapsFile.join(' ')}; load ${load()}`,
    );
    if (!mapped.mapsFile.every(Boolean))
      throw new Error('a mapped process does not list the snapshot in /proc/<pid>/maps');
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    report({
      name: `feed-index-shared-${ROWS}`,
      ratio: sum(mapped.pssMb) / sum(own.pssMb),
      target: undefined,
      details: {
        processes: PROCESSES,
        host_pss_mapped_mb: sum(mapped.pssMb),
        host_pss_own_mb: sum(own.pssMb),
        pss_per_process_mapped_mb: median(mapped.pssMb),
        pss_per_process_own_mb: median(own.pssMb),
        index_mb: mapped.figures[0]!.indexMb,
        first_page_mapped_ms: median(mapped.figures.map((figure) => figure.firstPageMs)),
        first_page_built_ms: median(own.figures.map((figure) => figure.firstPageMs)),
        index_to_page_mapped_ms: median(mapped.figures.map((figure) => figure.indexToPageMs)),
        index_to_page_built_ms: median(own.figures.map((figure) => figure.indexToPageMs)),
        load_average: load(),
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.FEED_SHARED_CHILD) {
  const { mode, file } = JSON.parse(process.env.FEED_SHARED_CHILD) as { mode: Mode; file: string };
  await child(mode, file);
} else {
  await main();
}
