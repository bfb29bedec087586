import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets } from '@repo/server-kit/testing';
import { SimWorld, startUpstreamSim, type UpstreamSim, ZoneChurn } from '@repo/upstream-sim';
import { DEMO_BRAND, DEMO_BRAND_LOOKALIKES, seedBrandAlert } from '../demo/demo-brand.ts';
import { type DemoControl, startDemoControl } from '../demo/demo-control.ts';
import { DEMO_CHURN_OPTIONS, runDemoPipeline } from '../demo/demo-pipeline.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { simPipelineEnv } from './sim-pipeline-env.ts';

const TLDS = ['com', 'net', 'xyz', 'store'];

for (const target of databaseTargets()) {
  describe(`the demo's brand alert fires into its inbox during the replay (${target.name})`, {
    skip: target.skip,
  }, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demo-brand-'));
    let sim: UpstreamSim;
    let t: TestApp;
    let control: DemoControl;

    before(async () => {
      const world = new SimWorld('2026-03-01T06:00:00Z');
      sim = await startUpstreamSim({ world });
      // The demo's own churn (its lookalikes included), on fewer names and TLDs.
      const churn = new ZoneChurn(world, { seed: 42, ...DEMO_CHURN_OPTIONS, tlds: TLDS, namesPerTld: 20 });
      churn.seed();
      const clock = new ManualClock(world.now());
      const advanceDay = churn.advanceDay.bind(churn);
      churn.advanceDay = () => {
        const day = advanceDay();
        clock.set(world.now());
        return day;
      };
      t = await createTestApp({ target, clock, env: simPipelineEnv(sim, TLDS) });
      control = await startDemoControl({
        host: '127.0.0.1',
        port: 0,
        anyPortIfTaken: true,
        dataDir,
        advance: async () => [],
        aboutToDrop: () => [],
        now: () => world.now(),
      });
      await seedBrandAlert(t.app.ctx, control.inboxUrl);
      await runDemoPipeline(t.app.ctx, churn, { days: 5 });
    });
    after(async () => {
      await control?.close();
      await t?.close();
      await sim?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('delivers every scheduled lookalike with its kind, and nothing else', () => {
      const rows = control.inbox
        .filter((entry) => entry.type === 'filter.batch')
        .flatMap(
          (entry) => (entry.body as { data: { rows: { domain: string; match: { kind: string } }[] } }).data.rows,
        );
      assert.deepEqual(
        Object.fromEntries(rows.map((row) => [row.domain, row.match.kind])),
        {
          'n0rthwind.com': 'homoglyph',
          'northwind-login.net': 'contains',
          'nortwhind.xyz': 'transposition',
          'northwind24.store': 'digit_inserted',
        },
        `${DEMO_BRAND}: ${DEMO_BRAND_LOOKALIKES.map((entry) => entry.name).join(', ')}`,
      );
    });
  });
}
