import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '@repo/server-kit/testing';
import { DEMO_DAYS, openDemoWorld } from '../demo/demo-world.ts';

const DAY_MS = 86_400_000;
const registries = (world: { domains: Map<string, unknown> }) =>
  JSON.stringify([...world.domains.entries()].sort(([a], [b]) => a.localeCompare(b)));

describe('the demo world across restarts (npm start over the same DATA_DIR)', () => {
  it('a restart finds the registries exactly as the first start left them, and a later one a day further', async () => {
    const dir = tempDir('demo-world');
    const firstStart = Date.parse('2026-11-23T10:00:00Z');
    try {
      const first = await openDemoWorld(dir.dir, firstStart);
      assert.equal(first.needsReplay, true);
      for (let day = 0; day < DEMO_DAYS; day += 1) first.churn.advanceDay(); // what the replay does
      await first.markReplayed();

      const restart = await openDemoWorld(dir.dir, firstStart + 3_600_000);
      assert.equal(restart.needsReplay, false);
      assert.equal(restart.world.now(), first.world.now());
      assert.equal(registries(restart.world), registries(first.world));

      const nextDay = await openDemoWorld(dir.dir, firstStart + DAY_MS + 60_000);
      assert.equal(nextDay.world.now(), first.world.now() + DAY_MS);
      first.churn.advanceDay();
      assert.equal(registries(nextDay.world), registries(first.world));
    } finally {
      dir.remove();
    }
  });

  it('a first start that died mid-replay replays again from the same world', async () => {
    const dir = tempDir('demo-world-crash');
    try {
      const first = await openDemoWorld(dir.dir, Date.parse('2026-11-23T10:00:00Z'));
      first.churn.advanceDay(); // the replay got one day in, then the process died
      const again = await openDemoWorld(dir.dir, Date.parse('2026-11-23T10:05:00Z'));
      assert.equal(again.needsReplay, true);
      assert.equal(again.world.now(), Date.parse('2026-11-23T10:00:00Z') - DEMO_DAYS * DAY_MS);
    } finally {
      dir.remove();
    }
  });
});
