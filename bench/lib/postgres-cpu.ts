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
  let ticks = 0;
  let found = false;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields?.command !== 'postgres') continue;
    found = true;
    ticks += fields.userTicks + fields.systemTicks;
    if (fields.parentCommand !== 'postgres') ticks += fields.childrenUserTicks + fields.childrenSystemTicks;
  }
  // Linux reports these counters in USER_HZ, 100 per second on every architecture Node runs on.
  return found ? ticks * 10_000 : null;
}

interface StatFields {
  command: string;
  parentCommand: string | undefined;
  userTicks: number;
  systemTicks: number;
  childrenUserTicks: number;
  childrenSystemTicks: number;
}

/** Fields of /proc/<pid>/stat (proc(5)); null when the process ended meanwhile. */
function statFields(pid: string): StatFields | null {
  const line = readStat(pid);
  if (!line) return null;
  // The command sits in parentheses and may itself hold spaces or parentheses: split after the last ')'.
  const close = line.lastIndexOf(')');
  const command = line.slice(line.indexOf('(') + 1, close);
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const parent = rest[1]!;
  const parentLine = command === 'postgres' ? readStat(parent) : null;
  return {
    command,
    parentCommand: parentLine ? parentLine.slice(parentLine.indexOf('(') + 1, parentLine.lastIndexOf(')')) : undefined,
    userTicks: Number(rest[11]),
    systemTicks: Number(rest[12]),
    childrenUserTicks: Number(rest[13]),
    childrenSystemTicks: Number(rest[14]),
  };
}

function readStat(pid: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
}
