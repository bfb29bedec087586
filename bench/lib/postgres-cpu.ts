import { readdirSync } from 'node:fs';
import { PROC_TICKS_PER_SECOND, type ProcStat, readProcStat } from '@repo/server-kit/testing';

/**
 * CPU time used so far by the local PostgreSQL server, in microseconds, read from /proc: every
 * live `postgres` process's own time plus the postmaster's reaped children (autovacuum workers and
 * ended backends come and go within a round; while alive their time is their own, once reaped it
 * is in the postmaster's). The difference over a round is what PostgreSQL spent in it: the
 * statements of the server under test, and any housekeeping of its own (autovacuum, checkpoints)
 * that shared the machine's cores with it. null where /proc or a local PostgreSQL is missing.
 */
export function postgresCpuUs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const processes = new Map<string, ProcStat>();
  for (const pid of pids) {
    const fields = readProcStat(`/proc/${pid}/stat`);
    if (fields?.command === 'postgres') processes.set(pid, fields);
  }
  if (processes.size === 0) return null;
  let ticks = 0;
  for (const fields of processes.values()) {
    ticks += fields.userTicks + fields.systemTicks;
    // The postmaster, the one postgres process whose parent is not one: its reaped children's time too.
    if (!processes.has(fields.parent)) ticks += fields.childrenUserTicks + fields.childrenSystemTicks;
  }
  return (ticks * 1_000_000) / PROC_TICKS_PER_SECOND;
}
