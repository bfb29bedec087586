import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ManualClock, temporaryPath } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { recoverInterruptedJobs, runJob } from '../src/jobs/pipeline.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const processes = path.join(import.meta.dirname, 'processes');
const run = promisify(execFile);

/** Runs a TypeScript file in a process of its own (tsx), as a separate program would. */
function tsxArgs(script: string, ...args: string[]): string[] {
  return ['--import', 'tsx', path.join(processes, script), ...args];
}

for (const target of databaseTargets()) {
  describe(`crash leftovers and lapsed leases (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    // The lease expiry is compared with the app clock; the killed process used the real one.
    const clock = new ManualClock(Date.now());
    before(async () => {
      t = await createTestApp({ target, clock, env: { TRACKED_TLDS: 'com', JOB_LEASE_SECONDS: '5' } });
    });
    after(async () => t.close());

    it('a restart sweeps the sort runs, snapshot and index temp files of a dead process, and keeps live work and download parts', async () => {
      const data = t.config.DATA_DIR;
      const sortDir = path.join(data, 'zones', 'tmp');
      const snapshotDir = path.join(data, 'zones', 'snapshots', 'com');
      const indexDir = t.config.ZONE_INDEX_DIR ?? path.join(data, 'zone-index');
      // Written by a process that then exits: the crashed writer.
      const { stdout } = await run(process.execPath, tsxArgs('leave-temp-files.ts', sortDir, snapshotDir, indexDir));
      const dead = stdout.trim().split('\n');
      assert.equal(dead.length, 3);
      for (const leftover of dead) assert.ok(existsSync(leftover));
      // Written by this (live) process: another instance's import still under way.
      const live = temporaryPath(sortDir, 'sort');
      mkdirSync(live);
      // A CZDS download cut off mid-way: resumed by the next sync, never swept.
      const part = path.join(data, 'zones', 'downloads', 'com', '2026-03-10.zone.gz.part');
      mkdirSync(path.dirname(part), { recursive: true });
      writeFileSync(part, 'first bytes of a zone');

      await t.spawnInstance(); // a restart on the same DATA_DIR and database

      for (const leftover of dead) assert.equal(existsSync(leftover), false, `${leftover} should be swept`);
      assert.ok(existsSync(live), 'the live process keeps its sort runs');
      assert.ok(existsSync(part), 'the download part is kept for resuming');
    });

    it('a daily job whose lease holder was killed mid-run is re-run once its short lease lapses', async () => {
      const holder = spawn(process.execPath, tsxArgs('hold-daily-lease.ts'), {
        env: { ...childEnv(t), JOB_LEASE_SECONDS: '5' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await waitForLine(holder, /^holding /);
        clock.set(Date.now());
        const whileAlive = await runJob(t.app.ctx, 'daily');
        assert.equal(whileAlive.status, 'skipped', 'the live holder keeps the job');
        assert.deepEqual(await recoverInterruptedJobs(t.app.ctx), [], 'a live lease is not a lapsed one');

        holder.kill('SIGKILL');
        await once(holder, 'exit');
        // The scheduler calls this every minute; here it is polled until the lease has lapsed.
        let rerun: string[] = [];
        for (let attempt = 0; attempt < 600 && rerun.length === 0; attempt++) {
          await sleep(100);
          clock.set(Date.now());
          rerun = await recoverInterruptedJobs(t.app.ctx);
        }
        assert.deepEqual(rerun, ['daily']);
        assert.equal(await t.app.ctx.jobLeases.holder('pipeline:daily'), null, 'the re-run released the lease');
        assert.deepEqual(await recoverInterruptedJobs(t.app.ctx), [], 'nothing left to recover');
      } finally {
        holder.kill('SIGKILL');
      }
    });

    it('a zone diff whose process is killed mid-apply completes on the next run with every transition once', async () => {
      const names = 200_000;
      const applier = spawn(process.execPath, tsxArgs('apply-zone-diff.ts'), {
        env: { ...childEnv(t), NAMES: String(names) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await waitForLine(applier, /^applied \d+/);
        applier.kill('SIGKILL');
        await once(applier, 'exit');
      } finally {
        applier.kill('SIGKILL');
      }
      const db = t.app.ctx.database.db;
      const countTransitions = async () =>
        Number(
          (
            await db
              .selectFrom('domain_transitions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('domain', 'like', 'crash%')
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await countTransitions();
      assert.ok(before > 0 && before < names, `the killed run wrote part of the diff (${before})`);
      assert.equal(before % 5000, 0, 'whole chunks only: a chunk is one transaction');

      async function* removals() {
        for (let i = 0; i < names; i++)
          yield { name: `crash${String(i).padStart(6, '0')}.com`, change: 'removed' as const };
      }
      const diff = { tld: 'com', fromDate: '2026-03-12', toDate: '2026-03-13' };
      const resumed = await t.app.ctx.lifecycle.applyZoneDiff({ ...diff, changes: removals() });
      assert.equal(resumed.status, 'applied');
      assert.equal(resumed.transitions, names - before);
      assert.equal(await countTransitions(), names);
      const rows = await db
        .selectFrom('feed_domains')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('domain', 'like', 'crash%')
        .groupBy('status')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.status, Number(row.n)]),
        [['left-zone', names]],
      );
      assert.equal(
        (await t.app.ctx.lifecycle.applyZoneDiff({ ...diff, changes: removals() })).status,
        'already_applied',
      );
    });
  });
}

/** The environment a child process needs to open this test's database and DATA_DIR. */
function childEnv(t: TestApp): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATA_DIR: t.config.DATA_DIR,
    ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
    ...(t.app.ctx.database.postgresSchema ? { POSTGRES_SCHEMA: t.app.ctx.database.postgresSchema } : {}),
  };
}

async function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  let buffered = '';
  for await (const chunk of child.stdout!) {
    buffered += chunk.toString();
    const line = buffered.split('\n').find((candidate) => pattern.test(candidate));
    if (line) return line;
  }
  throw new Error(`The process exited before printing ${pattern}`);
}
