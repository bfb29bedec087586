import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '@repo/server-kit/testing';
import { openDemoWorld } from '../demo/demo-world.ts';

const DAY_MS = 86_400_000;

describe('advancing the demo world (npm run demo -- advance)', () => {
  it('moves the present a day per step, plays the registries up to it, and a restart keeps both', async () => {
    const dir = tempDir('demo-world-advance');
    const firstStart = Date.parse('2026-11-23T10:00:00Z');
    try {
      const demo = await openDemoWorld(dir.dir, firstStart);
      for (let day = 0; day < 5; day += 1) demo.churn.advanceDay(); // the first start's replay
      await demo.markReplayed();
      const before = demo.now();
      const worldBefore = demo.world.now();

      const played = [...(await demo.nextDay()), ...(await demo.nextDay())];
      assert.equal(played.length, 2, 'one registry day per advanced day');
      assert.ok(demo.now() - before >= 2 * DAY_MS, 'the present is two days on');
      assert.equal(demo.world.now(), worldBefore + 2 * DAY_MS);

      // Started again the same hour: the two advanced days are still behind the world, not replayed again.
      const restart = await openDemoWorld(dir.dir, firstStart + 3_600_000);
      assert.equal(restart.needsReplay, false);
      assert.equal(restart.world.now(), demo.world.now());
      assert.ok(restart.now() >= firstStart + 3_600_000 + 2 * DAY_MS);
      const names = (world: typeof demo.world) => JSON.stringify([...world.domains.keys()].sort());
      assert.equal(names(restart.world), names(demo.world));
    } finally {
      dir.remove();
    }
  });
});
