import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testTimeout, testTimeoutFactor } from '../src/testing/timeouts.ts';

describe('test timeouts scaled by one factor', () => {
  it('takes TEST_TIMEOUT_FACTOR when set, within 1..20 of sense', () => {
    assert.equal(testTimeoutFactor({ TEST_TIMEOUT_FACTOR: '3' }), 3);
    assert.equal(testTimeoutFactor({ TEST_TIMEOUT_FACTOR: '1.5' }), 1.5);
    assert.equal(testTimeoutFactor({ TEST_TIMEOUT_FACTOR: '500' }), 20);
  });

  it('reads the load per core otherwise (at least 1), and ignores a value that is not a factor', () => {
    for (const env of [
      {},
      { TEST_TIMEOUT_FACTOR: 'fast' },
      { TEST_TIMEOUT_FACTOR: '0' },
      { TEST_TIMEOUT_FACTOR: '-2' },
    ]) {
      const factor = testTimeoutFactor(env);
      assert.ok(factor >= 1 && factor <= 20 && Number.isInteger(factor), `${JSON.stringify(env)}: ${factor}`);
    }
  });

  it('scales a timeout by the factor of this process', () => {
    assert.equal(testTimeout(1_000), Math.round(1_000 * testTimeoutFactor()));
  });
});
