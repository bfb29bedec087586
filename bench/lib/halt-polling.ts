/**
 * Guest halt polling for the length of a comparison. On a virtual machine with the cpuidle-haltpoll
 * driver, an idle vCPU polls for up to `guest_halt_poll_ns` before it halts; a vCPU that wakes a
 * task on a halted one sends it an interrupt through the hypervisor (a VM exit on both sides), one
 * that wakes a polling one only sets a flag (Linux, Documentation/virt/guest-halt-polling.rst).
 * The kernel's default is 200 µs; this workplace's Firecracker VMs boot with
 * `haltpoll.guest_halt_poll_ns=0`, so every answer that wakes `wrk` on the other vCPU, and every
 * request that wakes the server, went through the hypervisor. That cost lands in the server's
 * `writev` and grows with how long the server takes per call (wrk sleeps between slow answers,
 * finds fast ones ready), so it penalised the slower side of a ratio far more than the faster one
 * and swung with whatever else the machine was doing (measured here, 24 Nov 15:45 UTC:
 * `user.getUser` 56–63 µs of server CPU per call at 0 against 39–41 µs at 200 µs, hello-world 21
 * against 17.5 µs). A server in production is woken by its network card, not by a load generator
 * on the next vCPU, so the benchmarks measure with the kernel's default and restore the machine's
 * value afterwards. `BENCH_HALT_POLL_NS` sets another value; `machine` leaves the setting alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const PARAMETER = '/sys/module/haltpoll/parameters/guest_halt_poll_ns';
/** The kernel's own default (drivers/cpuidle/governors/haltpoll.c). */
const KERNEL_DEFAULT_NS = 200_000;

/** What a comparison ran with, for its result line. */
export interface HaltPolling {
  /** The value in effect during the run: `machine` when left alone, `absent` without the driver. */
  inEffect: string;
  /** The machine's own value, restored afterwards. */
  machine: string;
}

function read(): string | undefined {
  try {
    return readFileSync(PARAMETER, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function wanted(): string | undefined {
  const setting = process.env.BENCH_HALT_POLL_NS ?? String(KERNEL_DEFAULT_NS);
  if (setting === 'machine') return undefined;
  if (!/^\d+$/.test(setting)) throw new Error(`BENCH_HALT_POLL_NS must be a number of nanoseconds or "machine"`);
  return setting;
}

/** Runs `fn` with guest halt polling at the wanted value, then puts the machine's value back. */
export async function withHaltPolling<T>(fn: (polling: HaltPolling) => Promise<T>): Promise<T> {
  const machine = read();
  const value = wanted();
  if (machine === undefined) return fn({ inEffect: 'absent', machine: 'absent' });
  if (value === undefined || value === machine) return fn({ inEffect: value ?? 'machine', machine });
  try {
    writeFileSync(PARAMETER, value);
  } catch (error) {
    console.log(`guest halt polling left at ${machine} ns: ${(error as Error).message}`);
    return fn({ inEffect: 'machine', machine });
  }
  const restore = () => writeFileSync(PARAMETER, machine);
  // A run stopped with Ctrl-C or killed by run-all still gives the machine its value back.
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.kill(process.pid, signal);
  };
  process.once('exit', restore);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn({ inEffect: value, machine });
  } finally {
    restore();
    process.off('exit', restore);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
