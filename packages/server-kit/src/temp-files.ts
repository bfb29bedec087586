import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * Temporary files and directories that name the process writing them, so that a process
 * starting later can tell a crashed writer's leftovers from work still under way in another
 * process sharing the same directory (API instances and workers share DATA_DIR).
 *
 * Name: `<label>~tmp~<host>~<pid>~<incarnation>~<random>`. `incarnation` is random per process
 * start, so a restarted process that got the same pid (pid 1 in a container) still recognises
 * what its previous life left.
 */
const MARKER = '~tmp~';
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
const INCARNATION = randomBytes(4).toString('hex');
/** A leftover of another host cannot be checked for a live owner: it is removed once this old. */
export const FOREIGN_TEMP_MAX_AGE_MS = 24 * 3_600_000;

/** A fresh temporary name in `directory` for something about `label` (a date, a file name). */
export function temporaryPath(directory: string, label: string): string {
  const safeLabel = label.replace(/[^A-Za-z0-9._-]/g, '_');
  return path.join(
    directory,
    `${safeLabel}${MARKER}${HOST}~${process.pid}~${INCARNATION}~${randomBytes(6).toString('hex')}`,
  );
}

export function isTemporaryName(name: string): boolean {
  return name.includes(MARKER);
}

/**
 * Removes the temporary files and directories in `directory` whose writer is gone: a process
 * of this host that no longer runs (or an earlier life of this very process), or one of
 * another host whose leftover is older than a day. Returns the paths removed. A missing
 * directory has nothing to sweep.
 */
export async function sweepTemporaryFiles(directory: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!isTemporaryName(entry)) continue;
    const full = path.join(directory, entry);
    if (!(await writerIsGone(entry, full))) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(full);
  }
  return removed;
}

async function writerIsGone(name: string, full: string): Promise<boolean> {
  const [host, pidText, incarnation] = name.slice(name.indexOf(MARKER) + MARKER.length).split('~');
  const pid = Number(pidText);
  if (host === HOST && Number.isInteger(pid) && pid > 0) {
    if (pid === process.pid) return incarnation !== INCARNATION;
    if (!processIsAlive(pid)) return true;
  }
  // Another host, or a live pid that may have been reused: only age can tell.
  const info = await stat(full).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > FOREIGN_TEMP_MAX_AGE_MS;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
