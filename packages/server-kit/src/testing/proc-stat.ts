import { readFileSync } from 'node:fs';

/** The fields of a Linux `/proc/<pid>/stat` (or `/proc/<pid>/task/<tid>/stat`) line that tests and benchmarks read. */
export interface ProcStat {
  /** The command name, without its parentheses. */
  command: string;
  /** The parent's process id. */
  parent: string;
  /** CPU time in clock ticks (USER_HZ: 100 a second on every architecture Node runs on). */
  userTicks: number;
  systemTicks: number;
  /** CPU time of the children this process has waited for, in clock ticks. */
  childrenUserTicks: number;
  childrenSystemTicks: number;
  /** The nice value, -20 (first) to 19 (last). */
  nice: number;
}

/** Clock ticks per second of the CPU times in ProcStat. */
export const PROC_TICKS_PER_SECOND = 100;

/**
 * The fields of the stat file at `file` (proc(5)); null where it cannot be read (the process or
 * thread has ended, or there is no /proc).
 */
export function readProcStat(file: string): ProcStat | null {
  let line: string;
  try {
    line = readFileSync(file, 'latin1');
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
    nice: Number(rest[16]),
  };
}
