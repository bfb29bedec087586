/**
 * Two days of synthetic `.com` snapshots in the zones module's format (gzip, byte order, one
 * name per line), shared by the zone-diff and daily-apply benchmarks.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { seededRandom } from '@repo/upstream-sim';

export interface SnapshotPairOptions {
  size: number;
  /** Share of names removed on day two; the same share is added. */
  churn: number;
  older: string;
  newer: string;
  /** TLD of the names (default `com`). */
  tld?: string;
  /** RNG seed (default `size`): equal seeds give equal labels at equal positions. */
  seed?: number;
}

/**
 * Writes `<dir>/<older>.txt.gz` and `<dir>/<newer>.txt.gz` and returns how many changes
 * separate them, and the names removed and added (when `collect` is set). Names come out in
 * byte order by construction: a unique fixed-width prefix (the index in base 26), then a
 * random tail of zone-like characters. Removed names are skipped on day two; an added name
 * extends its neighbour (`prefix+tail+"0"`) so it sorts right after it.
 */
export async function writeSnapshotPair(
  dir: string,
  options: SnapshotPairOptions,
  collect?: { removed: string[]; added: string[] },
): Promise<{ changes: number }> {
  const { size, churn } = options;
  const suffix = `.${options.tld ?? 'com'}`;
  let changes = 0;
  const day = (newer: boolean) =>
    Readable.from(
      (function* () {
        const random = seededRandom(options.seed ?? size);
        const batch: string[] = [];
        for (let i = 0; i < size; i++) {
          const name = `${prefix(i)}${tail(random)}`;
          const roll = random();
          const removed = roll < churn;
          const added = roll > 1 - churn;
          if (newer && (removed || added)) changes++;
          if (newer && collect && removed) collect.removed.push(name + suffix);
          if (newer && collect && added) collect.added.push(`${name}0${suffix}`);
          if (!(newer && removed)) batch.push(name + suffix);
          if (newer && added) batch.push(`${name}0${suffix}`);
          if (batch.length >= 8192) yield `${batch.splice(0).join('\n')}\n`;
        }
        if (batch.length > 0) yield `${batch.join('\n')}\n`;
      })(),
    );
  const write = (date: string, newer: boolean) =>
    pipeline(day(newer), createGzip(), createWriteStream(path.join(dir, `${date}.txt.gz`)));
  mkdirSync(dir, { recursive: true });
  await Promise.all([write(options.older, false), write(options.newer, true)]);
  return { changes };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
const TAIL = 'etaoinshrdlcumwfgypbvkjxqz0123456789-';

export function prefix(index: number): string {
  let text = '';
  for (let rest = index, digit = 0; digit < 6; digit++, rest = Math.floor(rest / 26)) {
    text = ALPHABET[rest % 26] + text;
  }
  return text;
}

export function tail(random: () => number): string {
  const length = Math.floor(random() * 12);
  let text = '';
  for (let i = 0; i < length; i++) text += TAIL[Math.floor(random() * TAIL.length)];
  return text;
}
