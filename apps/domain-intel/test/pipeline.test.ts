import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { SimWorld, startUpstreamSim, type UpstreamSim, webFacts, ZoneChurn } from '@repo/upstream-sim';
import { runDemoPipeline } from '../demo/demo-pipeline.ts';
import { runDailyPipeline } from '../src/jobs/pipeline.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simPipelineEnv } from './sim-pipeline-env.ts';

const TLDS = ['com', 'net', 'org'];
const simEnv = (sim: UpstreamSim) => simPipelineEnv(sim, TLDS);

for (const target of databaseTargets()) {
  describe(`pipeline end to end on the simulator (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let churn: ZoneChurn;
    const purged = new Set<string>();
    const restored = new Set<string>();
    /** Names the churn registered, with the date of the first zone file that holds them. */
    const registered = new Map<string, string>();

    before(async () => {
      const world = new SimWorld('2026-03-01T06:00:00Z');
      sim = await startUpstreamSim({ world });
      churn = new ZoneChurn(world, {
        seed: 42,
        tlds: TLDS,
        namesPerTld: 40,
        expirySpreadDays: 3,
        renewRate: 0.4,
        restoreRate: 0.3,
        reRegisterRate: 0,
        newPerDay: 1,
        redemptionDays: 1,
        pendingDeleteDays: 1,
      });
      churn.seed();
      // The service's clock follows the simulated world.
      const clock = new ManualClock(world.now());
      t = await createTestApp({ target, clock, env: simEnv(sim) });
      const advanceDay = churn.advanceDay.bind(churn);
      churn.advanceDay = () => {
        const day = advanceDay();
        clock.set(world.now());
        for (const name of day.purged) purged.add(name);
        for (const name of day.restored) restored.add(name);
        for (const name of day.registered) registered.set(name, new Date(world.now()).toISOString().slice(0, 10));
        return day;
      };
      await runDemoPipeline(t.app.ctx, churn, { days: 5 });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('the feed shows exactly the drops RDAP verified, with their enrichment', async () => {
      assert.ok(purged.size >= 5, `the churn purged names (${purged.size})`);
      const key = await t.keyFor('starter');
      const response = await t.app.inject({ url: '/v1/domains?limit=100', headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      const rows = response.json().data as Array<Record<string, unknown>>;
      assert.deepEqual(rows.map((row) => row.domain).sort(), [...purged].sort());
      assert.equal(response.json().meta.total, purged.size);

      for (const row of rows) {
        const name = row.domain as string;
        const facts = webFacts(sim.world, name)!;
        assert.equal(row.status, 'dropped');
        assert.ok(row.dropped_at && row.verified_at);
        assert.equal(row.da, facts.da ?? null, `${name} da`);
        assert.equal(row.tf, facts.tf ?? null, `${name} tf (Majestic's NotFound is unknown: null, never 0)`);
        assert.equal(
          row.first_archived,
          facts.firstArchivedAt === undefined ? null : new Date(facts.firstArchivedAt).toISOString().slice(0, 10),
        );
        const label = name.slice(0, name.indexOf('.'));
        const own = name.slice(name.indexOf('.') + 1);
        const expectedAlt = TLDS.filter((tld) => tld !== own && sim.world.get(`${label}.${tld}`)?.inZone);
        assert.deepEqual(row.alt_tlds, expectedAlt, `${name} alt TLDs`);
        assert.equal(row.alt_tld_count, expectedAlt.length);
      }
    });

    it('lists as new exactly the names registered after the first zone file, each with the day it appeared', async () => {
      assert.ok(registered.size >= 5, `the churn registered names (${registered.size})`);
      const key = await t.keyFor('starter');
      const response = await t.app.inject({ url: '/v1/domains?status=new&limit=100', headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      const rows = response.json().data as Array<{ domain: string; status: string; first_seen: string }>;
      assert.deepEqual(rows.map((row) => [row.domain, row.first_seen]).sort(), [...registered].sort());
      assert.ok(rows.every((row) => row.status === 'new'));
      // A restored name was in the zone before it left: back, not new.
      assert.ok(restored.size > 0, 'the churn restored names');
      for (const name of restored) assert.ok(!rows.some((row) => row.domain === name), name);
    });

    it('records every transition with its evidence, and restored names end as returned', async () => {
      const name = [...purged].sort()[0]!;
      const history = await t.app.ctx.lifecycle.history(name);
      assert.deepEqual(
        history.map((step) => [step.from, step.to, step.evidence]),
        [
          ['in-zone', 'left-zone', 'zone_removed'],
          ['left-zone', 'redemption', 'rdap_status'],
          ['redemption', 'pending-delete', 'rdap_status'],
          ['pending-delete', 'dropped', 'rdap_not_found'],
        ],
      );
      const comeBacks = await t.app.ctx.database.db
        .selectFrom('feed_domains')
        .select(['domain', 'status'])
        .where('domain', 'in', [...restored, '-'])
        .execute();
      assert.ok(comeBacks.length > 0);
      for (const row of comeBacks) assert.equal(row.status, 'returned', row.domain);
    });

    it('re-running a finished day changes nothing', async () => {
      const count = async () =>
        Number(
          (
            await t.app.ctx.database.db
              .selectFrom('domain_transitions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      const report = await runDailyPipeline(t.app.ctx, { date: new Date(sim.world.now()).toISOString().slice(0, 10) });
      for (const tld of report.tlds) {
        assert.equal(tld.snapshot, 'already_imported');
        assert.equal(tld.diff?.status, 'already_applied');
      }
      assert.equal(await count(), before);
    });
  });
}
