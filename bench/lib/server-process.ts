/**
 * Servers under test in processes of their own. The benchmark (parent) names a module and an
 * exported factory; serve-child.ts imports it in a fresh Node process, starts the server and
 * answers CPU-counter requests over IPC, so the load generator and the parent's own work never
 * share the server's event loop or its CPU counters.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** What a factory module exports: starts one server in the child and says where it listens. */
export type ServerFactory<Options, Info> = (options: Options) => Promise<StartedServer<Info>>;

export interface StartedServer<Info> {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Anything the benchmark needs to call it (JSON only), e.g. an Authorization header. */
  info: Info;
  close(): Promise<void>;
}

/** The server process's own CPU counters (process.cpuUsage(), microseconds) at one moment. */
export interface CpuSample {
  userUs: number;
  systemUs: number;
  rssMb: number;
}

export interface ServerProcess<Info> {
  url: string;
  info: Info;
  pid: number;
  cpu(): Promise<CpuSample>;
  /**
   * A full garbage collection in the server process; resolves to false when it was started without
   * `--expose-gc` (BENCH_SERVER_NODE_FLAGS), when nothing was collected.
   */
  collectGarbage(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ServerProcessOptions {
  /** Write a V8 CPU profile (`--cpu-prof`) of the server process into this directory at close. */
  cpuProfileDir?: string;
  /** Environment on top of this process's own (NODE_ENV is production unless given). */
  env?: Record<string, string>;
}

const CHILD = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
const START_TIMEOUT_MS = Number(process.env.BENCH_SERVER_START_TIMEOUT_MS ?? 15 * 60_000);

type ChildMessage =
  | { type: 'ready'; url: string; info: unknown }
  | { type: 'cpu'; id: number; userUs: number; systemUs: number; rssMb: number }
  | { type: 'gc'; id: number; collected: boolean }
  | { type: 'failed'; message: string };

/**
 * Starts `exportName` of `module` (a file URL) with `options` in a new Node process. Its
 * stdout goes to /dev/null (log lines are written as in production, then discarded); stderr
 * is shared with the benchmark so failures are seen.
 */
export async function startServerProcess<Options, Info>(
  module: URL,
  exportName: string,
  options: Options,
  processOptions: ServerProcessOptions = {},
): Promise<ServerProcess<Info>> {
  const execArgv = ['--import', 'tsx'];
  if (processOptions.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${processOptions.cpuProfileDir}`);
  // V8 flags NODE_OPTIONS refuses, for profiling the server (e.g. `--no-turbo-inlining`, so a CPU
  // profile attributes time to the function that spends it rather than to the one it was inlined into).
  execArgv.push(...(process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean));
  const child = spawn(process.execPath, [...execArgv, CHILD], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      ...processOptions.env,
      BENCH_SERVER: JSON.stringify({ module: module.href, exportName, options }),
    },
  });
  const ready = await waitForReady(child, `${exportName} (${module.pathname.split('/').pop()})`);
  let nextId = 0;
  const pending = new Map<number, (sample: CpuSample) => void>();
  const collections = new Map<number, (collected: boolean) => void>();
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'gc') {
      collections.get(message.id)?.(message.collected);
      collections.delete(message.id);
    }
    if (message.type !== 'cpu') return;
    pending.get(message.id)?.({ userUs: message.userUs, systemUs: message.systemUs, rssMb: message.rssMb });
    pending.delete(message.id);
  });
  return {
    url: ready.url,
    info: ready.info as Info,
    pid: child.pid!,
    cpu() {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.send({ type: 'cpu', id });
      });
    },
    collectGarbage() {
      const id = nextId++;
      return new Promise((resolve) => {
        collections.set(id, resolve);
        child.send({ type: 'gc', id });
      });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function waitForReady(child: ChildProcess, label: string): Promise<{ url: string; info: unknown }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before it listened (its stderr is above)`));
    };
    child.once('exit', onExit);
    child.on('message', function onMessage(message: ChildMessage) {
      if (message.type === 'failed') {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.off('message', onMessage);
        child.kill('SIGKILL');
        reject(new Error(`${label} failed to start: ${message.message}`));
      } else if (message.type === 'ready') {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve({ url: message.url, info: message.info });
      }
    });
  });
}
