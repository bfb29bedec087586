import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const START = path.resolve('scripts/start.ts');
const CLI = path.resolve('apps/domain-intel/src/cli.ts');
const TSX = import.meta.resolve('tsx');
const DEMO_EMAIL = 'demo@domain-intel.example';

/**
 * `npm start` on `dataDir` until everything runs, then stopped as Ctrl+C stops it; gives the demo key it
 * printed. Every port is 0 (a free one), so the run never meets another on this machine.
 */
async function startOnce(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', TSX, START], {
    cwd: tmpdir(),
    env: {
      ...process.env,
      // npm start's embedded default, as the CLI below reads it: CI's DATABASE_URL would put the demo's data in the
      // shared database's default schemas, where the CLI (on DATA_DIR) would not find it and later runs would.
      DATABASE_URL: '',
      REDIS_URL: '',
      REDIS_CLUSTER_URLS: '',
      DATA_DIR: dataDir,
      DOMAIN_INTEL_PORT: '0',
      PLATFORM_PORT: '0',
      SAMPLE_APP_PORT: '0',
      SIM_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const running = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (/Upstream simulator/.test(stdout)) resolve();
    }),
  );
  const first = await Promise.race([running.then(() => 'running' as const), exited.then(() => 'exited' as const)]);
  assert.equal(first, 'running', `npm start ended before it ran:\n${stdout}\n${stderr}`);
  child.kill('SIGINT');
  assert.equal(await exited, 0, stderr);
  const key = /Demo key \([\w, ]+\)\s+(di_live_\w+)/.exec(stdout)?.[1];
  assert.ok(key, stdout);
  return key;
}

describe('npm start replaces the demo key of the previous start', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'start-demo-key-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('two starts on one DATA_DIR leave one active demo key, the second start’s', async () => {
    const firstKey = await startOnce(dataDir);
    const secondKey = await startOnce(dataDir);
    assert.notEqual(firstKey, secondKey);

    // The keys as the operator's command lists them, on the data directory both starts used.
    const list = spawnSync(process.execPath, ['--import', TSX, CLI, 'keys', 'list', '--email', DEMO_EMAIL, '--json'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', REDIS_CLUSTER_URLS: '' },
      encoding: 'utf8',
    });
    assert.equal(list.status, 0, list.stderr);
    const keys = JSON.parse(list.stdout) as Array<{ prefix: string; revoked_at: string | null }>;
    const active = keys.filter((key) => key.revoked_at === null);
    assert.equal(active.length, 1, list.stdout);
    assert.ok(secondKey.startsWith(active[0]!.prefix), 'the active key is the one the second start printed');
    assert.equal(keys.length, 2, 'the first start’s key is kept, revoked');
  });
});
