import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The corpus of real upstream data (see fixtures/real/SOURCES.md for where each file comes from). */
export const REAL_DIR = path.join(import.meta.dirname, 'fixtures', 'real');

/** Paths (relative to fixtures/real) of every file under `kind` (e.g. `rdap`, `zones`). */
export function realFiles(kind: string): string[] {
  return readdirSync(path.join(REAL_DIR, kind), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(REAL_DIR, path.join(entry.parentPath, entry.name)))
    .sort();
}

export function readReal(file: string): string {
  return readFileSync(path.join(REAL_DIR, file), 'utf8');
}

export function readRealJson(file: string): Record<string, unknown> {
  return JSON.parse(readReal(file)) as Record<string, unknown>;
}

/** Every file listed in SOURCES.md, so a file without its origin fails the corpus test. */
export function filesWithSources(): Set<string> {
  const rows = readReal('SOURCES.md').split('\n');
  return new Set(rows.flatMap((row) => /^\| `([^`]+)` \|/.exec(row)?.slice(1) ?? []));
}
