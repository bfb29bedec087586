import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { testTimeout } from '@repo/server-kit/testing';

const START = path.resolve('scripts/start.ts');
/** tsx by its own path: the run is in an empty directory, where `--import tsx` would find nothing. */
const TSX = import.meta.resolve('tsx');

/** `npm start` as `npm start` runs it, in an empty directory, with these variables on top of ours. */
function start(env: Record<string, string>) {
  const cwd = mkdtempSync(path.join(tmpdir(), 'start-settings-'));
  try {
    const run = spawnSync(process.execPath, ['--import', TSX, START], {
      cwd,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: testTimeout(60_000),
    });
    return { ...run, written: readdirSync(cwd) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('npm start settings', () => {
  it('refuses bad ports by the names that were set, without a stack trace, before anything starts', () => {
    const run = start({ DOMAIN_INTEL_PORT: 'abc', PLATFORM_PORT: '99999', DATA_DIR: '' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^npm start: Invalid configuration:/m);
    assert.match(run.stderr, /DOMAIN_INTEL_PORT: /);
    assert.match(run.stderr, /PLATFORM_PORT: /);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.deepEqual(run.written, [], 'nothing written');
  });

  it("tells a service's bad setting the same way, and an empty DATA_DIR is ./data, not the current directory", () => {
    const run = start({
      DATA_DIR: '',
      LOG_LEVEL: 'verbose',
      DOMAIN_INTEL_PORT: '0',
      PLATFORM_PORT: '0',
      SIM_PORT: '0',
    });
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^npm start: Invalid configuration:\n {2}LOG_LEVEL: /m);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    // The demo world is opened before the services read their settings: under ./data.
    assert.deepEqual(run.written, ['data']);
  });
});
