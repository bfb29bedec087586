import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, testTimeout, waitForLine } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from '../src/config.ts';
import { CLAIM_MS } from '../src/delivery/outbox.ts';
import { recoverInterruptedJobs } from '../src/jobs/pipeline.ts';
import { RECOVERY_PERIOD_MS } from '../src/jobs/schedules.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, childEnv, createTestApp, type TestApp } from './helpers.ts';
import { startReceiver } from './webhook-receiver.ts';

const processes = path.join(import.meta.dirname, 'processes');
/** Work must resume at most this long after its holder died (issue 35). */
const RESUME_WITHIN_MS = 60_000;

describe('the shipped lease settings', () => {
  it('let work resume within 60 s of its holder dying: the lease, then at most one recovery period', () => {
    const leaseMs = loadDomainIntelConfig({ NODE_ENV: 'test' }).JOB_LEASE_SECONDS * 1000;
    assert.ok(leaseMs + RECOVERY_PERIOD_MS <= RESUME_WITHIN_MS, `${leaseMs} + ${RECOVERY_PERIOD_MS} ms`);
    assert.ok(CLAIM_MS <= leaseMs, "a dead sender's delivery is due again by the time its lease lapses");
  });
});

for (const target of databaseTargets()) {
  describe(`a job whose holder is killed with SIGKILL (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    // The lease and claim expiries are compared with the app clock, the child used the real one:
    // the test sets this clock to the real time, then moves it on instead of waiting.
    const clock = new ManualClock(Date.now());
    before(async () => {
      // The shipped lease length (JOB_LEASE_SECONDS' default), not a shortened one.
      t = await createTestApp({ target, clock, env: { TRACKED_TLDS: 'com', RDAP_ALLOW_INSECURE: '1' } });
    });
    after(async () => t?.close());

    it('hourly run killed mid-delivery: both leases and the delivery claim lapse within the limit, and a recovery check resumes the work', async () => {
      const receiver = await startReceiver();
      try {
        const key = await t.keyFor('enterprise');
        const api = (url: string, payload: object) =>
          t.app.inject({ method: 'POST', url, headers: bearer(key), payload });
        const hook = (await api('/account/targets', { kind: 'webhook', address: receiver.url })).json().data;
        receiver.setSecret(hook.secret);
        const saved = await api('/account/filters', {
          name: 'killed holder',
          filter: 'contains=leasekill',
          target_ids: [hook.target_id],
        });
        assert.equal(saved.statusCode, 201, saved.body);
        clock.set(Date.now());
        await t.app.ctx.database.db
          .insertInto('feed_domains')
          .values(['leasekill-a.com', 'leasekill-b.com'].map((name) => feedRow(name, { updated_at: clock.now() })))
          .execute();

        receiver.answer('keep'); // the receiver takes the batch and never answers: the send is in flight
        const holder = spawn(process.execPath, ['--import', 'tsx', path.join(processes, 'run-job.ts'), 'hourly'], {
          env: childEnv(t),
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let killedAt: number;
        try {
          await waitForLine(holder, /^running hourly/);
          for (let attempt = 0; attempt < 1200 && receiver.received.length === 0; attempt++)
            await sleep(testTimeout(50));
          assert.equal(receiver.received.length, 1, 'the holder was sending when it was killed');
          assert.ok(await t.app.ctx.jobLeases.holder('pipeline:hourly'), 'it held the hourly lease');
          assert.ok(await t.app.ctx.jobLeases.holder('deliveries'), 'and the deliveries lease');
          killedAt = Date.now();
          holder.kill('SIGKILL');
          await once(holder, 'exit');
        } finally {
          holder.kill('SIGKILL');
        }

        const leaseMs = t.config.JOB_LEASE_SECONDS * 1000;
        for (const name of ['pipeline:hourly', 'deliveries']) {
          const lease = await t.app.ctx.jobLeases.holder(name);
          assert.ok(lease, `${name} is still recorded: its holder never released it`);
          assert.ok(lease.expiresAt <= killedAt + leaseMs, `${name} lapses at most ${leaseMs} ms after the kill`);
        }
        const [delivery] = await t.app.ctx.database.db
          .selectFrom('deliveries')
          .select(['status', 'next_attempt_at'])
          .where('target_id', '=', hook.target_id)
          .execute();
        assert.equal(delivery!.status, 'pending');
        assert.ok(Number(delivery!.next_attempt_at) <= killedAt + CLAIM_MS, 'the claim lapses within CLAIM_MS');

        // While the leases run, a recovery check finds nothing to resume and a new run is refused.
        clock.set(killedAt);
        assert.deepEqual(await recoverInterruptedJobs(t.app.ctx), []);

        // The first recovery check after the leases lapsed: at most one recovery period later.
        receiver.answer('ok');
        clock.set(killedAt + leaseMs + RECOVERY_PERIOD_MS);
        const rerun = await recoverInterruptedJobs(t.app.ctx);
        assert.deepEqual(rerun.sort(), ['deliveries', 'hourly']);
        assert.equal(receiver.received.length, 2, 'the batch in flight was sent again');
        assert.equal(receiver.received[1]!.id, receiver.received[0]!.id, 'under the same webhook-id');
        assert.equal(await t.app.ctx.jobLeases.holder('pipeline:hourly'), null);
        assert.equal(await t.app.ctx.jobLeases.holder('deliveries'), null);
        const [sent] = await t.app.ctx.database.db
          .selectFrom('deliveries')
          .select('status')
          .where('target_id', '=', hook.target_id)
          .execute();
        assert.equal(sent!.status, 'delivered');
      } finally {
        await receiver.close();
      }
    });
  });
}
