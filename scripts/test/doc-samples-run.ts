/**
 * Runs one sample of the guides against the started system, as a reader would paste it: placeholders
 * (`$KEY`, `$BASE`, `di_live_…`, the demo's addresses, `spk_…`/`spt_…`/`tgt_…` ids an earlier line of
 * the block printed, `<port>` of a receiver) replaced by the real ones, curl and commands through `sh`,
 * TypeScript through tsx, Python through python3. Gives what went wrong, or nothing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { answerDrift, parseSampleJson } from './doc-samples-answer.ts';
import type { Sample } from './doc-samples-blocks.ts';
import type { Stack } from './doc-samples-stack.ts';

const run = promisify(execFile);
const TSX = import.meta.resolve('tsx');

export interface RunContext {
  stack: Stack;
  /** A directory under the repository (so `@repo/sdk` resolves) for the sample files and `beach.jpg`. */
  work: string;
  /** Port of a receiver that answers 200 to anything (for `<port>`). */
  receiverPort: number;
  python: boolean;
}

/** Values an earlier command of a block printed, for the placeholders of later ones. */
type Learned = Map<string, string>;

const LEARNED_IDS: Array<[RegExp, RegExp]> = [
  [/"key":"(spk_[\w-]+)"/, /spk_[\w-]*…/g],
  [/"token":"(spt_[\w-]+)"/, /spt_…/g],
  [/"target_id":"(tgt_[\w-]+)"/, /tgt_…/g],
  [/"domain":"([a-z0-9.-]+)"/, /\bNAME\b/g],
  [/"app_id":(\d+)/, /<APP ID>/g],
];

function substitute(text: string, context: RunContext, learned: Learned): string {
  const { stack } = context;
  let out = text
    .replaceAll('http://127.0.0.1:3000', stack.domainIntel)
    .replaceAll('http://127.0.0.1:3100', stack.platform)
    .replaceAll('http://127.0.0.1:3900', stack.sim)
    .replaceAll('di_live_…', stack.key)
    .replaceAll('<port>', String(context.receiverPort));
  for (const [, placeholder] of LEARNED_IDS) {
    const value = learned.get(placeholder.source);
    if (value) out = out.replace(placeholder, value);
  }
  return out;
}

function learn(output: string, learned: Learned): void {
  for (const [found, placeholder] of LEARNED_IDS) {
    const value = found.exec(output)?.[1];
    if (value && !learned.has(placeholder.source)) learned.set(placeholder.source, value);
  }
}

/** The guides about the platform: their `$BASE` is the platform's address. */
const PLATFORM_GUIDES = new Set(['platform-apps.md']);

function environment(context: RunContext, sample?: Sample): NodeJS.ProcessEnv {
  const { stack } = context;
  return {
    ...process.env,
    DATA_DIR: stack.dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    REDIS_CLUSTER_URLS: '',
    KEY: stack.key,
    DI_KEY: stack.key,
    BASE: sample && PLATFORM_GUIDES.has(sample.file) ? stack.platform : stack.domainIntel,
    APP_SECRET: stack.appSecret,
  };
}

/** The block's commands: continuation lines joined, blank and comment-only lines left out. */
function commandsOf(content: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of content.split('\n')) {
    if (!current && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += line;
    if (line.endsWith('\\')) current = `${current.slice(0, -1)} `;
    else {
      commands.push(current);
      current = '';
    }
  }
  if (current) commands.push(current);
  return commands;
}

/** `name=value` alone on its line (a shell variable later commands use), not `NAME=value command`. */
const ASSIGNMENT = /^\s*[A-Za-z_]\w*=('[^']*'|"[^"]*"|\$\([^)]*\)|[^\s'"]*)\s*(#.*)?$/;

/** Whether the answer the guide shows is an error (then the call must fail as it shows). */
function showsError(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null) return false;
  const record = answer as Record<string, unknown>;
  const output = record.output as Record<string, unknown> | undefined;
  return 'error' in record || (typeof output === 'object' && output !== null && 'error' in output);
}

function checkAnswer(where: string, status: number, body: string, shown: unknown, problems: string[]): void {
  const failed = status >= 400;
  if (shown === undefined) {
    if (failed) problems.push(`${where}: HTTP ${status}: ${body.slice(0, 300)}`);
    return;
  }
  if (failed !== showsError(shown)) problems.push(`${where}: HTTP ${status} (${body.slice(0, 300)})`);
  let returned: unknown;
  try {
    returned = JSON.parse(body);
  } catch {
    problems.push(`${where}: the answer is not JSON: ${body.slice(0, 300)}`);
    return;
  }
  for (const drift of answerDrift(shown, returned)) problems.push(`${where}: ${drift}`);
}

const STATUS_MARK = /HTTP-STATUS (\d{3})\n?$/;

async function runShell(sample: Sample, context: RunContext): Promise<string[]> {
  const problems: string[] = [];
  const learned: Learned = new Map();
  if (/spk_[\w-]*…/.test(sample.content) && !/social-platform .*keys issue/.test(sample.content)) {
    learned.set(LEARNED_IDS[0]![1].source, await context.stack.issueAppKey());
  }
  if (/spt_…/.test(sample.content) && !/token\.php/.test(sample.content)) {
    learned.set(LEARNED_IDS[1]![1].source, await context.stack.issueToken());
  }
  // `$TOKEN`: a token of the sample app, as the guide's step before it gives one.
  const token = /\$TOKEN\b/.test(sample.content) ? { TOKEN: await context.stack.issueToken() } : {};
  const commands = commandsOf(sample.content);
  const curls = commands.filter((command) => /^\s*curl\s/.test(command)).length;
  // Each command runs in a shell of its own, after the block's variable assignments before it.
  const assignments: string[] = [];
  const shown = sample.answer ? parseSampleJson(sample.answer.content) : undefined;
  for (const command of commands) {
    const line = substitute(command, context, learned);
    if (ASSIGNMENT.test(command)) {
      assignments.push(line);
      continue;
    }
    const isCurl = /^\s*curl\s/.test(command);
    // Each curl writes its HTTP status on stderr, after whatever it printed.
    const script = [
      'set -e',
      ...assignments,
      ...(isCurl ? [`curl() { command curl -sS -w '%{stderr}\\nHTTP-STATUS %{http_code}\\n' "$@"; }`] : []),
      line,
    ].join('\n');
    try {
      const { stdout, stderr } = await run('sh', ['-c', script], {
        cwd: context.work,
        env: { ...environment(context, sample), ...token },
        maxBuffer: 64 * 1024 * 1024,
      });
      learn(stdout, learned);
      if (!isCurl) continue;
      const status = Number(STATUS_MARK.exec(stderr)?.[1] ?? 0);
      checkAnswer(command.trim().slice(0, 100), status, stdout, curls === 1 ? shown : undefined, problems);
    } catch (error) {
      const failure = error as { stdout?: string; stderr?: string; message: string };
      problems.push(`${command.trim().slice(0, 100)}: ${failure.stderr || failure.stdout || failure.message}`);
    }
  }
  return problems;
}

interface Exchange {
  method: string;
  target: string;
  headers: Record<string, string>;
  status?: number;
  body?: string;
}

/** `GET /path`, header lines, then optionally `200 {…}` (the status and answer), for each request of the block. */
function exchangesOf(content: string): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const line of content.split('\n')) {
    const request = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(line);
    const current = exchanges.at(-1);
    if (request) exchanges.push({ method: request[1]!, target: request[2]!, headers: {} });
    else if (!current || line.trim() === '') continue;
    else if (current.body !== undefined) current.body += `\n${line}`;
    else if (/^\d{3} /.test(line)) {
      current.status = Number(line.slice(0, 3));
      current.body = line.slice(4);
    } else {
      const header = /^([\w-]+): (.*)$/.exec(line);
      if (header) current.headers[header[1]!] = header[2]!;
    }
  }
  return exchanges;
}

async function runTranscript(sample: Sample, context: RunContext): Promise<string[]> {
  const problems: string[] = [];
  const exchanges = exchangesOf(sample.content);
  for (const exchange of exchanges) {
    const where = `${exchange.method} ${exchange.target.slice(0, 80)}`;
    const headers = Object.fromEntries(
      Object.entries(exchange.headers).map(([name, value]) => [name, substitute(value, context, new Map())]),
    );
    const response = await fetch(`${context.stack.domainIntel}${exchange.target}`, {
      method: exchange.method,
      headers,
    });
    const body = await response.text();
    const shownText = exchange.body ?? (exchanges.length === 1 ? sample.answer?.content : undefined);
    const shown = shownText === undefined ? undefined : parseSampleJson(shownText);
    if (exchange.status !== undefined && exchange.status !== response.status) {
      problems.push(
        `${where}: the sample shows ${exchange.status}, returned ${response.status}: ${body.slice(0, 300)}`,
      );
    }
    checkAnswer(where, response.status, body, shown, problems);
  }
  return problems;
}

async function runProgram(sample: Sample, context: RunContext): Promise<string[]> {
  const name = `${sample.file.replaceAll('/', '-').replace(/\.md$/, '')}-${sample.line}`;
  const file = path.join(context.work, `${name}.${sample.kind === 'ts' ? 'ts' : 'py'}`);
  mkdirSync(context.work, { recursive: true });
  writeFileSync(file, substitute(sample.content, context, new Map()));
  // A sample that trades a platform key reads it from APP_KEY, as an app reads it from its canvas URL.
  const appKey = /APP_KEY/.test(sample.content) ? { APP_KEY: await context.stack.issueAppKey() } : {};
  const [command, args] = sample.kind === 'ts' ? [process.execPath, ['--import', TSX, file]] : ['python3', [file]];
  try {
    const { stdout } = await run(command, args, {
      cwd: context.work,
      env: { ...environment(context), ...appKey },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.trim() === '' ? ['printed nothing'] : [];
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    return [failure.stderr || failure.message];
  }
}

/** Runs the sample; the problems found (none: it does what the guide says). */
export function runSample(sample: Sample, context: RunContext): Promise<string[]> {
  switch (sample.kind) {
    case 'shell':
      return runShell(sample, context);
    case 'transcript':
      return runTranscript(sample, context);
    default:
      return runProgram(sample, context);
  }
}
