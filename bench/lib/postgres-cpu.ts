import { readdirSync, readFileSync } from 'node:fs';

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
  const processes = new Map<string, StatFields>();
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields?.command === 'postgres') processes.set(pid, fields);
  }
  if (processes.size === 0) return null;
  let ticks = 0;
  for (const fields of processes.values()) {
    ticks += fields.userTicks + fields.systemTicks;
    // The postmaster, the one postgres process whose parent is not one: its reaped children's time too.
    if (!processes.has(fields.parent)) ticks += fields.childrenUserTicks + fields.childrenSystemTicks;
  }
  // Linux reports these counters in USER_HZ, 100 per second on every architecture Node runs on.
  return ticks * 10_000;
}

interface StatFields {
  command: string;
  parent: string;
  userTicks: number;
  systemTicks: number;
  childrenUserTicks: number;
  childrenSystemTicks: number;
}

/** Fields of /proc/<pid>/stat (proc(5)); null when the process ended meanwhile. */
function statFields(pid: string): StatFields | null {
  let line: string;
  try {
    line = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command sits in parentheses and may itself hold spaces or parentheses: split after the last ')'.
  const close = line.lastIndexOf(')');
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  return {
    command: line.slice(line.indexOf('(') + 1, close),
    parent: rest[1]!,
    userTicks: Number(rest[11]),
    systemTicks: Number(rest[12]),
    childrenUserTicks: Number(rest[13]),
    childrenSystemTicks: Number(rest[14]),
  };
}
