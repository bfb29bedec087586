/**
 * The load generator: `wrk` (C, from Debian's packages) in its own process, so generating load
 * costs the server under test as little CPU as possible on a small machine. A Lua `done` hook
 * prints the figures as one JSON line, which is all this module reads of wrk's output.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface LoadOptions {
  /** Full URL to hit. */
  url: string;
  headers?: Record<string, string>;
  /** Open connections (default 16). wrk runs one thread: the server under test gets the other core. */
  connections?: number;
  /** Seconds of measurement. */
  seconds: number;
  /**
   * Milliseconds each connection waits after a response before its next request (wrk's Lua
   * `delay`): paced load instead of as fast as the server answers.
   */
  delayMs?: number;
  method?: 'GET' | 'POST';
  body?: string;
  /** One header whose value changes on every request, in turn through `values` (several API keys). */
  rotatingHeader?: RotatingHeader;
}

export interface RotatingHeader {
  name: string;
  values: string[];
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Responses with status >= 400 (wrk's own definition of a status error). */
  errorStatuses: number;
  /** Connect, read, write errors and timeouts. */
  socketErrors: number;
}

const MARKER = 'WRK_JSON ';

// wrk's summary and latency objects, printed as one line. Latencies are in microseconds.
const DONE_SCRIPT = `
local method = os.getenv("WRK_METHOD")
if method then wrk.method = method end
local body = os.getenv("WRK_BODY")
if body then wrk.body = body end
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "")
if pause then delay = function() return pause end end
local rotating = os.getenv("WRK_ROTATING_HEADER")
if rotating then
  local values = {}
  for value in string.gmatch(os.getenv("WRK_ROTATING_VALUES"), "[^\\n]+") do values[#values + 1] = value end
  local turn = 0
  request = function()
    turn = turn % #values + 1
    wrk.headers[rotating] = values[turn]
    return wrk.format()
  end
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${MARKER}{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;

let scriptPath: string | undefined;
let checked = false;

/**
 * Makes sure `wrk` is on the PATH, installing Debian's package when it is missing (the
 * benchmark machines are Debian and the benchmarks run as root there); throws a clear error
 * when that is not possible.
 */
export function ensureWrk(): void {
  if (checked) return;
  if (!hasWrk()) {
    console.log('wrk is not installed: installing it with apt-get (Debian package "wrk")…');
    const install = () =>
      spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], { stdio: 'inherit' });
    let result = install();
    if (result.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit' });
      result = install();
    }
    if (!hasWrk()) {
      throw new Error(
        'The benchmarks generate load with wrk, which is not installed and could not be installed ' +
          `(apt-get ${result.error ? `failed to start: ${result.error.message}` : `exited with ${result.status}`}). ` +
          'Install it as root with `apt-get install -y wrk` (Debian/Ubuntu) or from https://github.com/wg/wrk, then run again.',
      );
    }
  }
  checked = true;
}

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // `wrk --version` prints its usage and exits 1: it is there. ENOENT means it is not.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

function doneScript(): string {
  if (!scriptPath) {
    scriptPath = path.join(mkdtempSync(path.join(tmpdir(), 'bench-wrk-')), 'done.lua');
    writeFileSync(scriptPath, DONE_SCRIPT);
  }
  return scriptPath;
}

/** Runs wrk once against one URL and returns its figures. */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  ensureWrk();
  const connections = options.connections ?? 16;
  const args = ['-t1', `-c${connections}`, `-d${Math.max(1, Math.round(options.seconds))}s`, '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push('-s', doneScript(), options.url);
  const env = { ...process.env };
  if (options.method) env.WRK_METHOD = options.method;
  if (options.body !== undefined) env.WRK_BODY = options.body;
  if (options.delayMs !== undefined) env.WRK_DELAY_MS = String(options.delayMs);
  if (options.rotatingHeader) {
    env.WRK_ROTATING_HEADER = options.rotatingHeader.name;
    env.WRK_ROTATING_VALUES = options.rotatingHeader.values.join('\n');
  }
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
  });
  const line = output.split('\n').find((candidate) => candidate.startsWith(MARKER));
  if (!line) throw new Error(`wrk printed no figures:\n${output}`);
  const raw = JSON.parse(line.slice(MARKER.length)) as Record<string, number>;
  const seconds = raw.duration_us! / 1e6;
  return {
    requests: raw.requests!,
    requestsPerSecond: raw.requests! / seconds,
    p50Ms: raw.p50_us! / 1000,
    p95Ms: raw.p95_us! / 1000,
    p99Ms: raw.p99_us! / 1000,
    errorStatuses: raw.status!,
    socketErrors: raw.connect! + raw.read! + raw.write! + raw.timeout!,
  };
}
