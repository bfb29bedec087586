import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deadlineSignal, whenAborted } from '../src/deadline.ts';

describe('one deadline signal per call', () => {
  it('a layer handed the call signal with a deadline no earlier keeps it: one timer for the call', () => {
    const deadline = Date.now() + 60_000;
    const call = deadlineSignal(deadline);
    assert.equal(deadlineSignal(deadline, call), call);
    assert.equal(deadlineSignal(deadline + 5, call), call);
    // A layer with an earlier deadline of its own needs its own timer, joined with the call's.
    const tighter = deadlineSignal(deadline - 30_000, call);
    assert.notEqual(tighter, call);
    assert.equal(deadlineSignal(deadline - 30_000, tighter), tighter);
  });

  it('a signal that is not a deadline (a caller giving up) is joined with the deadline', () => {
    const giveUp = new AbortController();
    const joined = deadlineSignal(Date.now() + 60_000, giveUp.signal);
    assert.notEqual(joined, giveUp.signal);
    giveUp.abort();
    assert.equal(joined.aborted, true);
  });

  it('fires at the deadline, and whenAborted resolves then', async () => {
    const signal = deadlineSignal(Date.now() + 5);
    // The deadline's timer does not hold the process open (AbortSignal.timeout is unref'd): when this
    // test file is alone in its process, something must, or the loop ends before the timer fires.
    const keepAlive = setInterval(() => {}, 10);
    try {
      await whenAborted(signal);
      assert.equal(signal.aborted, true);
      await whenAborted(signal);
    } finally {
      clearInterval(keepAlive);
    }
    // A deadline computed from a fractional elapsed time (reply.elapsedTime) is a valid one.
    assert.equal(deadlineSignal(Date.now() + 60_000.5).aborted, false);
  });
});
