/**
 * The system the guides' samples are tried against: `npm start` itself (the demo a reader runs, with its
 * replayed feed, demo key, demo users and sample app), on a fresh data directory and free ports.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freeLoopbackPort } from '@repo/server-kit/testing';

const root = path.resolve(import.meta.dirname, '..', '..');
const START = path.join(root, 'scripts/start.ts');
const DOMAIN_INTEL_CLI = path.join(root, 'apps/domain-intel/bin/domain-intel.js');
const PLATFORM_CLI = path.join(root, 'apps/social-platform/bin/social-platform.js');
const TSX = import.meta.resolve('tsx');

export interface Stack {
  root: string;
  dataDir: string;
  domainIntel: string;
  platform: string;
  sim: string;
  /**
   * An Enterprise key of the demo account (as after its upgrade in the dashboard): the guides' samples
   * include the Enterprise features (export, delivery to webhooks), which the guides say so.
   */
  key: string;
  /**
   * A fresh one-time key for alice (`npx social-platform keys issue`) of an app registered for the samples
   * (every permission, no signed exchange required: the demo's sample app requires one).
   */
  issueAppKey(): Promise<string>;
  /** That app's secret (`sps_…`), for the signed exchange's samples. */
  appSecret: string;
  /** A token of the sample app for alice, from a fresh key traded at token.php. */
  issueToken(): Promise<string>;
  stop(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'doc-samples-'));
  const [domainIntelPort, platformPort, samplePort, simPort, demoPort] = [
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
    await freeLoopbackPort(),
  ];
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, START], {
    cwd: root,
    env: {
      ...process.env,
      // The demo as a reader starts it: on its embedded defaults, whatever databases the test run has.
      DATABASE_URL: '',
      REDIS_URL: '',
      REDIS_CLUSTER_URLS: '',
      DATA_DIR: dataDir,
      DOMAIN_INTEL_PORT: String(domainIntelPort),
      PLATFORM_PORT: String(platformPort),
      SAMPLE_APP_PORT: String(samplePort),
      SIM_PORT: String(simPort),
      DEMO_PORT: String(demoPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const running = new Promise<void>((resolve) =>
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (/Upstream simulator/.test(stdout)) resolve();
    }),
  );
  const first = await Promise.race([running.then(() => 'running' as const), exited.then(() => 'exited' as const)]);
  assert.equal(first, 'running', `npm start ended before it ran:\n${stdout}\n${stderr}`);
  try {
    return await ready();
  } catch (error) {
    child.kill('SIGINT');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  async function ready(): Promise<Stack> {
    const demoEmail = /account (\S+@\S+?)\)/.exec(stdout)?.[1];
    assert.ok(demoEmail, stdout);
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', REDIS_CLUSTER_URLS: '' };
    const { stdout: created } = await promisify(execFile)(
      process.execPath,
      [
        DOMAIN_INTEL_CLI,
        'keys',
        'create',
        '--email',
        demoEmail,
        '--plan',
        'enterprise',
        '--name',
        'doc samples',
        '--json',
      ],
      { cwd: root, env },
    );
    const { key } = JSON.parse(created) as { key: string };
    const platform = `http://127.0.0.1:${platformPort}`;
    const platformCli = async (...args: string[]) =>
      JSON.parse(
        (await promisify(execFile)(process.execPath, [PLATFORM_CLI, '--json', ...args], { cwd: root, env })).stdout,
      );
    const samplesApp = (await platformCli(
      'apps',
      'create',
      '--name',
      'Doc samples',
      '--url',
      'http://127.0.0.1:9/',
      '--owner',
      'alice',
      '--permissions',
      'basic_profile,email,friends,mail_count,notifications,photos_read,photos_upload,send_notifications',
      '--publish',
    )) as { app_id: number; app_secret: string };
    async function issueAppKey(): Promise<string> {
      const issued = await platformCli('keys', 'issue', '--app', String(samplesApp.app_id), '--user', 'alice');
      return (issued as { key: string }).key;
    }
    return {
      root,
      dataDir,
      domainIntel: `http://127.0.0.1:${domainIntelPort}`,
      platform,
      sim: `http://127.0.0.1:${simPort}`,
      key,
      issueAppKey,
      appSecret: samplesApp.app_secret,
      async issueToken() {
        const response = await fetch(`${platform}/token.php?key=${await issueAppKey()}`);
        assert.equal(response.status, 200);
        return ((await response.json()) as { token: string }).token;
      },
      async stop() {
        child.kill('SIGINT');
        await exited;
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
}
