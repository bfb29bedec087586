/**
 * Zone index against a JavaScript Set of the same names: build time, memory and lookups per
 * second at 1 M and 10 M names (BENCH_ZONE_SIZES=1000000,10000000 by default).
 * Names are synthetic but zone-like: 3–20 characters, some digits and hyphens, in snapshot
 * order. Probes are half present, half absent, in random order.
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@repo/upstream-sim';
import { BlockCache } from '../apps/domain-intel/src/zone-index/block-cache.ts';
import { DEFAULT_BLOCK_SIZE } from '../apps/domain-intel/src/zone-index/format.ts';
import { IndexFile } from '../apps/domain-intel/src/zone-index/index-reader.ts';
import { writeIndexFile } from '../apps/domain-intel/src/zone-index/index-writer.ts';
import { report } from './lib/harness.ts';

const sizes = (process.env.BENCH_ZONE_SIZES ?? '1000000,10000000').split(',').map(Number);
const PROBES = 1_000_000;
const CONCURRENT_LOOKUPS = 256;
/** The service's default block cache (ZONE_INDEX_CACHE_MB). */
const CACHE_BYTES = 64 * 1_048_576;

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapBytes = () => {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';
function syntheticLabel(next: () => number): string {
  const length = 3 + Math.floor(next() * next() * 18);
  let label = '';
  for (let i = 0; i < length; i++) {
    const roll = next();
    if (roll < 0.04 && i > 0 && i < length - 1 && !label.endsWith('-')) label += '-';
    else if (roll < 0.1) label += String(Math.floor(next() * 10));
    else label += LETTERS[Math.floor(next() * next() * LETTERS.length)];
  }
  return label;
}

function syntheticLabels(count: number, seed: number): string[] {
  const next = seededRandom(seed);
  const labels = new Set<string>();
  while (labels.size < count) labels.add(syntheticLabel(next));
  // Snapshot order is the byte order of full names; for ASCII, JS string order is byte order.
  return [...labels].map((label) => `${label}.com`).sort();
}

async function measure(size: number, directory: string): Promise<void> {
  const names = syntheticLabels(size, size);
  const absent = syntheticLabels(PROBES / 2, size + 1).filter((name) => !name.startsWith('\u0000'));
  const next = seededRandom(7);
  const probes: string[] = [];
  for (let i = 0; i < PROBES / 2; i++) {
    probes.push(names[Math.floor(next() * names.length)]!.slice(0, -4), absent[i]!.slice(0, -4));
  }

  // Set: the names are already in memory (they are in `names`), so its cost is the table plus
  // a private copy of each string, which is what a Set loaded from a snapshot would hold.
  const beforeSet = heapBytes();
  let started = performance.now();
  const set = new Set<string>();
  for (const name of names) set.add(name.slice(0, -4));
  const setBuildMs = performance.now() - started;
  const setBytes = heapBytes() - beforeSet;
  started = performance.now();
  let setHits = 0;
  for (const probe of probes) if (set.has(probe)) setHits++;
  const setLookupsPerSecond = probes.length / ((performance.now() - started) / 1000);
  set.clear();
  gc();

  const file = path.join(directory, `com.${size}.zidx`);
  started = performance.now();
  const metadata = await writeIndexFile(file, names, { tld: 'com', date: '2026-03-10' });
  const indexBuildMs = performance.now() - started;
  names.length = 0;

  const cache = new BlockCache(CACHE_BYTES);
  const index = await IndexFile.open(file, cache);
  const directoryBytes = index.residentBytes;
  started = performance.now();
  let indexHits = 0;
  for (let i = 0; i < probes.length; i += CONCURRENT_LOOKUPS) {
    const batch = probes.slice(i, i + CONCURRENT_LOOKUPS);
    const answers = await Promise.all(batch.map((probe) => index.has(probe)));
    for (const answer of answers) if (answer) indexHits++;
  }
  const indexLookupsPerSecond = probes.length / ((performance.now() - started) / 1000);
  const cachedBytes = cache.bytes;
  const indexBytes = directoryBytes + cachedBytes;
  await index.close();
  rmSync(file);
  if (indexHits !== setHits) throw new Error(`index found ${indexHits} names, Set found ${setHits}`);

  const millions = size / 1_000_000;
  const label = millions >= 1 ? `${millions}m` : `${size}`;
  const common = { names: size, block_size: DEFAULT_BLOCK_SIZE };
  report({
    name: `zone-index-${label}-memory`,
    ratio: indexBytes / setBytes,
    target: '<= 0.25',
    details: {
      ...common,
      index_mb: indexBytes / 1_048_576,
      index_directory_mb: directoryBytes / 1_048_576,
      index_cache_mb: cachedBytes / 1_048_576,
      set_mb: setBytes / 1_048_576,
      index_mb_per_million_resident: directoryBytes / 1_048_576 / millions,
      disk_mb_per_million: metadata.directoryOffset / 1_048_576 / millions,
    },
  });
  report({
    name: `zone-index-${label}-lookups`,
    ratio: indexLookupsPerSecond / setLookupsPerSecond,
    target: '>= 0.1',
    details: { ...common, index_lookups_per_s: indexLookupsPerSecond, set_lookups_per_s: setLookupsPerSecond },
  });
  report({
    name: `zone-index-${label}-build`,
    ratio: indexBuildMs / setBuildMs,
    target: '<= 3',
    details: { ...common, index_build_ms: indexBuildMs, set_build_ms: setBuildMs },
  });
}

const directory = await mkdtemp(path.join(tmpdir(), 'zone-index-bench-'));
try {
  for (const size of sizes) await measure(size, directory);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
