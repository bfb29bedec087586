import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { SimWorld, startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { runDailyPipeline } from '../src/jobs/pipeline.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

const DAY = 86_400_000;

for (const target of databaseTargets()) {
  describe(`daily pipeline with a bad zone file (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let clock: ManualClock;

    before(async () => {
      sim = await startUpstreamSim({ world: new SimWorld('2026-03-01T06:00:00Z') });
      for (let i = 0; i < 6; i += 1) {
        sim.world.register(`name${i}.com`);
        sim.world.register(`name${i}.net`);
      }
      clock = new ManualClock(sim.world.now());
      t = await createTestApp({
        target,
        clock,
        env: {
          ...simRdapEnv(sim),
          TRACKED_TLDS: 'com,net',
          CZDS_AUTH_URL: `${sim.url}/czds-auth`,
          CZDS_API_URL: sim.url,
          CZDS_USERNAME: sim.czds.username,
          CZDS_PASSWORD: sim.czds.password,
          CZDS_RETRY_DELAY_MS: '5',
        },
      });
      await runDailyPipeline(t.app.ctx, { date: '2026-03-01' });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('reports the failed TLD, keeps its snapshot and lifecycle untouched, and goes on with the others', async () => {
      sim.world.advance(DAY);
      clock.set(sim.world.now());
      sim.world.get('name1.com')!.inZone = false;
      sim.world.get('name2.net')!.inZone = false;
      sim.czds.failNextDownloads({ kind: 'corrupt' });

      const report = await runDailyPipeline(t.app.ctx, { date: '2026-03-02' });
      const com = report.tlds.find((tld) => tld.tld === 'com')!;
      const net = report.tlds.find((tld) => tld.tld === 'net')!;
      assert.equal(com.snapshot, 'failed');
      assert.match(com.error!, /corrupt|gzip|damaged/i);
      assert.equal(com.diff, null);
      assert.equal(net.snapshot, 'imported');
      assert.equal(net.diff?.removed, 1);

      assert.deepEqual(await t.app.ctx.snapshots.dates('com'), ['2026-03-01']);
      const rows = await t.app.ctx.database.db.selectFrom('feed_domains').select(['domain', 'status']).execute();
      assert.deepEqual(rows, [{ domain: 'name2.net', status: 'left-zone' }]);
    });
  });
}
