import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { whileClaimed } from '../src/renewed-claim.ts';

const CLAIM_MS = 30_000;

/** A claim whose answers the test sets, recording what it was asked. */
function fakeClaim(taken: number | null) {
  const renewals: number[] = [];
  let next: number | null = taken === null ? null : taken + CLAIM_MS;
  return {
    renewals,
    loseIt() {
      next = null;
    },
    claim: {
      take: async () => taken,
      async renew(claimedUntil: number) {
        renewals.push(claimedUntil);
        const answer = next;
        if (next !== null) next += CLAIM_MS;
        return answer;
      },
    },
  };
}

/** Lets the promise callbacks a timer started run (the fake claim answers at once). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('whileClaimed (a short claim renewed while its holder lives)', () => {
  it('renews every third of the claim while the work lasts, each time from the last end, and stops with the work', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const { claim, renewals } = fakeClaim(1_000);
      let finish!: () => void;
      const working = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const run = whileClaimed(claim, CLAIM_MS, () => working);
      await settle();
      for (let third = 0; third < 4; third++) {
        mock.timers.tick(CLAIM_MS / 3);
        await settle();
      }
      assert.deepEqual(renewals, [1_000, 1_000 + CLAIM_MS, 1_000 + 2 * CLAIM_MS, 1_000 + 3 * CLAIM_MS]);
      finish();
      assert.equal(await run, true);
      mock.timers.tick(CLAIM_MS);
      await settle();
      assert.equal(renewals.length, 4, 'no renewal once the work is over (the claim simply lapses if not released)');
    } finally {
      mock.timers.reset();
    }
  });

  it('stops renewing a claim that is no longer its own, and runs nothing when another process holds it', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const lost = fakeClaim(1_000);
      let finish!: () => void;
      const run = whileClaimed(
        lost.claim,
        CLAIM_MS,
        () =>
          new Promise<void>((resolve) => {
            finish = resolve;
          }),
      );
      await settle();
      lost.loseIt();
      for (let third = 0; third < 3; third++) {
        mock.timers.tick(CLAIM_MS / 3);
        await settle();
      }
      assert.deepEqual(lost.renewals, [1_000], 'asked once, told it is lost, never again');
      finish();
      assert.equal(await run, true);

      let ran = false;
      assert.equal(
        await whileClaimed(fakeClaim(null).claim, CLAIM_MS, async () => {
          ran = true;
        }),
        false,
      );
      assert.equal(ran, false);
    } finally {
      mock.timers.reset();
    }
  });
});
