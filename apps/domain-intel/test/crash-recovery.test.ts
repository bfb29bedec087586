import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { ManualClock, temporaryPath } from '@repo/server-kit';
import { databaseTargets, testTimeout, waitForLine } from '@repo/server-kit/testing';
import { recoverInterruptedJobs, runJob } from '../src/jobs/pipeline.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, childEnv, createTestApp, type TestApp } from './helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

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
      t = await createTestApp({
        target,
        clock,
        env: { TRACKED_TLDS: 'com', JOB_LEASE_SECONDS: '5', RDAP_ALLOW_INSECURE: '1' },
      });
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

    it('a delivery whose process is killed after the webhook took the batch, before it was marked, is resent once under the same id', async () => {
      const receiver = await startReceiver();
      try {
        const key = await t.keyFor('enterprise');
        const api = (url: string, payload: object) =>
          t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
        const hook = (await api('/account/targets', { kind: 'webhook', address: receiver.url })).json().data;
        receiver.setSecret(hook.secret);
        const saved = await api('/account/filters', {
          name: 'killed send',
          filter: 'contains=killsend',
          target_ids: [hook.target_id],
        });
        assert.equal(saved.statusCode, 201, saved.body);
        const filterId = saved.json().data.filter_id;
        // The child uses the real clock: keep the app clock with it.
        clock.set(Date.now());
        const names = ['killsend-a.com', 'killsend-b.com', 'killsend-c.com'];
        await t.app.ctx.database.db
          .insertInto('feed_domains')
          .values(names.map((name) => feedRow(name, { updated_at: clock.now() })))
          .execute();

        receiver.answer('keep');
        const sender = spawn(process.execPath, tsxArgs('deliver-now.ts'), {
          env: childEnv(t),
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        try {
          await waitForLine(sender, /^sending/);
          for (let attempt = 0; attempt < 600 && receiver.received.length === 0; attempt++)
            await sleep(testTimeout(50));
          assert.equal(receiver.received.length, 1, 'the receiver took the batch');
          sender.kill('SIGKILL');
          await once(sender, 'exit');
        } finally {
          sender.kill('SIGKILL');
        }
        const [taken] = receiver.received;
        const deliveryLog = async () =>
          (await t.app.inject({ url: `/v1/deliveries?filter_id=${filterId}`, headers: bearer(key) })).json()
            .data as Array<{ rows: number; status: string; delivered_at: string | null }>;
        const pending = await deliveryLog();
        assert.deepEqual(
          pending.map((entry) => [entry.status, entry.delivered_at]),
          [['pending', null]],
          'the killed process never heard the answer',
        );

        // The claim the dead process held lapses (CLAIM_MS, 30 s); the next round sends the stored message again.
        receiver.answer('ok');
        clock.set(Date.now() + 6 * 60_000);
        const report = await t.app.ctx.delivery.run();
        assert.deepEqual(report.sent, { delivered: 1, retrying: 0, dead: 0 });
        assert.equal(receiver.received.length, 2);
        const [, again] = receiver.received;
        assert.equal(again!.id, taken!.id, 'the same webhook-id, so the receiver can drop the duplicate');
        assert.deepEqual(again!.body, taken!.body, 'the same batch, byte for byte');
        assert.deepEqual(receiver.uniqueRows().sort(), names, 'each row once for a receiver that drops repeated ids');

        const nothingMore = await t.app.ctx.delivery.run();
        assert.deepEqual(nothingMore.sent, { delivered: 0, retrying: 0, dead: 0 });
        assert.deepEqual(
          (await deliveryLog()).map((entry) => [entry.rows, entry.status]),
          [[3, 'delivered']],
          'one batch, no second one for the same rows',
        );
      } finally {
        await receiver.close();
      }
    });
  });
}
