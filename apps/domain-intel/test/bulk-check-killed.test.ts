import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, testTimeout, waitForLine } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { BulkCheckService } from '../src/bulk/bulk-check-service.ts';
import { BulkCheckStore } from '../src/bulk/bulk-check-store.ts';
import { recoverInterruptedJobs } from '../src/jobs/pipeline.ts';
import { RECOVERY_PERIOD_MS } from '../src/jobs/schedules.ts';
import { bearer, childEnv, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

const processes = path.join(import.meta.dirname, 'processes');
const NAMES = Array.from({ length: 120 }, (_, i) => `killed-worker-${i}.com`);
/** The shipped default rate: 10 lookups a second per registry host, 8 of them for background traffic. */
const RDAP_ENV = { TRACKED_TLDS: 'com', RDAP_HOST_RATE_PER_SECOND: '10' };

for (const target of databaseTargets()) {
  describe(`a bulk job whose worker is killed with SIGKILL (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    // Leases are compared with the app clock, the child used the real one: the test sets this
    // clock to the real time, then moves it on instead of waiting for the lease to lapse.
    const clock = new ManualClock(Date.now());
    before(async () => {
      sim = await startUpstreamSim();
      t = await createTestApp({ target, clock, env: simRdapEnv(sim, RDAP_ENV) });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('resumes after the lease lapses, asking only the names the dead worker had not decided, each once', async () => {
      const key = await t.keyFor('enterprise');
      const submitted = await t.app.inject({
        method: 'POST',
        url: '/account/bulk-checks',
        headers: bearer(key),
        payload: { domains: NAMES },
      });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const { id } = submitted.json().data;
      const db = t.app.ctx.database.db;
      const decided = async () =>
        (
          await db
            .selectFrom('bulk_check_items')
            .select('domain')
            .where('job_id', '=', id)
            .where('result', 'is not', null)
            .execute()
        ).map((row) => row.domain);

      const worker = spawn(process.execPath, ['--import', 'tsx', path.join(processes, 'run-job.ts'), 'bulk-checks'], {
        env: childEnvWithSim(t, sim),
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let killedAt: number;
      try {
        await waitForLine(worker, /^running bulk-checks/);
        // Mid-job: some names decided (at the registry's background rate), most not yet.
        for (let attempt = 0; attempt < 2400 && (await decided()).length < 16; attempt++) await sleep(testTimeout(25));
        killedAt = Date.now();
        worker.kill('SIGKILL');
        await once(worker, 'exit');
      } finally {
        worker.kill('SIGKILL');
      }
      const decidedAtKill = new Set(await decided());
      assert.ok(decidedAtKill.size >= 16, `killed after ${decidedAtKill.size} names`);
      assert.ok(decidedAtKill.size < NAMES.length, 'killed before the end of the job');
      const lease = await t.app.ctx.jobLeases.holder('bulk-checks');
      assert.ok(lease, 'the dead worker never released its lease');
      const leaseMs = t.config.JOB_LEASE_SECONDS * 1000;
      assert.ok(lease.expiresAt <= killedAt + leaseMs, 'it lapses within a lease length of the kill');
      const progress = (await t.app.inject({ url: `/account/bulk-checks/${id}`, headers: bearer(key) })).json().data;
      assert.equal(progress.status, 'running');

      // The same service as the job runs, over the same tables, recording every name it asks.
      const asked: string[] = [];
      const recording = new BulkCheckService({
        store: new BulkCheckStore(db),
        availability: {
          check: (names, options) => {
            asked.push(...names);
            return t.app.ctx.availability.check(names, options);
          },
        },
        quota: t.app.ctx.quota,
        clock,
        emitCompleted: (accountId, data, dedupeKey) =>
          t.app.ctx.delivery.emit(accountId, 'bulk_check.completed', data, dedupeKey),
      });
      const jobs = { ...t.app.ctx, bulkChecks: recording };

      clock.set(killedAt);
      assert.deepEqual(await recoverInterruptedJobs(jobs), [], 'nothing resumes while the lease runs');
      clock.set(killedAt + leaseMs + RECOVERY_PERIOD_MS);
      assert.deepEqual(await recoverInterruptedJobs(jobs), ['bulk-checks']);

      assert.deepEqual(
        asked.filter((name) => decidedAtKill.has(name)),
        [],
        'no name decided before the kill was asked again',
      );
      assert.deepEqual(
        [...asked].sort(),
        NAMES.filter((name) => !decidedAtKill.has(name)).sort(),
        'every other name asked exactly once',
      );
      const done = (await t.app.inject({ url: `/account/bulk-checks/${id}`, headers: bearer(key) })).json().data;
      assert.deepEqual(
        { status: done.status, done: done.done, total: done.total },
        {
          status: 'done',
          done: NAMES.length,
          total: NAMES.length,
        },
      );
      const results = await t.app.inject({ url: `/account/bulk-checks/${id}/results`, headers: bearer(key) });
      const items = results.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        items.map((item) => item.domain),
        NAMES,
        'one item per name, in the order given',
      );
      assert.ok(items.every((item) => item.status === 'available'));
      assert.equal(await t.app.ctx.jobLeases.holder('bulk-checks'), null, 'the resumed run released the lease');
    });
  });
}

/** The test app's database and DATA_DIR, and the simulator's RDAP servers. */
function childEnvWithSim(t: TestApp, sim: UpstreamSim): NodeJS.ProcessEnv {
  return { ...childEnv(t), ...simRdapEnv(sim, RDAP_ENV) };
}
