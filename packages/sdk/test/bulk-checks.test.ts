import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { runJob } from '../../../apps/domain-intel/src/jobs/pipeline.ts';
import { simRdapEnv } from '../../../apps/domain-intel/test/rdap-helpers.ts';
import { type Availability, DomainIntelClient, hasCode } from '../src/index.ts';
import { type RunningDomainIntel, startDomainIntel } from './servers.ts';

for (const target of databaseTargets()) {
  describe(`DomainIntelClient bulk checks (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: RunningDomainIntel;
    let starter: DomainIntelClient;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('sdk-taken.com');
      t = await startDomainIntel(target, simRdapEnv(sim, { RDAP_HOST_RATE_PER_SECOND: '1000' }));
      starter = new DomainIntelClient({ baseUrl: t.baseUrl, apiKey: await t.keyFor('starter') });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('starts a job, follows it, streams its items and lists it; cancel of a finished job is bulk_check_finished', async () => {
      const job = await starter.bulkCheck(['sdk-taken.com', 'SDK-Taken.com', 'sdk-free.com', 'not a name']);
      assert.deepEqual(
        { status: job.status, total: job.total, duplicates: job.duplicates, invalid: job.invalid },
        { status: 'queued', total: 3, duplicates: 1, invalid: 1 },
      );
      await runJob(t.app.ctx, 'bulk-checks');
      const status = await starter.bulkCheckStatus(job.id);
      assert.equal(status.status, 'done');
      assert.equal(status.done, 3);
      const items: Availability[] = [];
      for await (const item of starter.bulkCheckResults(job.id)) items.push(item);
      assert.deepEqual(
        items.map((item) => [item.domain, item.status]),
        [
          ['sdk-taken.com', 'registered'],
          ['sdk-free.com', 'available'],
          ['not a name', 'invalid'],
        ],
      );
      const page = await starter.bulkChecks({ limit: 5 });
      assert.deepEqual(
        page.items.map((entry) => entry.id),
        [job.id],
      );
      await assert.rejects(starter.cancelBulkCheck(job.id), (error: unknown) => hasCode(error, 'bulk_check_finished'));
      await assert.rejects(starter.bulkCheckStatus('bulk_nope'), (error: unknown) =>
        hasCode(error, 'bulk_check_not_found'),
      );
    });

    it('cancels a queued job, and a stream of an unknown job throws its error', async () => {
      const job = await starter.bulkCheck(['sdk-cancel.com']);
      const cancelled = await starter.cancelBulkCheck(job.id);
      assert.equal(cancelled.status, 'cancelled');
      await assert.rejects(
        (async () => {
          for await (const _ of starter.bulkCheckResults('bulk_nope')) {
            // nothing arrives
          }
        })(),
        (error: unknown) => hasCode(error, 'bulk_check_not_found'),
      );
    });
  });
}
