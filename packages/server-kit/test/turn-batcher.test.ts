import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnBatcher } from '../src/turn-batcher.ts';

describe('TurnBatcher', () => {
  it('hands each key the items of one turn in one run, in the order they were added', async () => {
    const runs: string[][] = [];
    const batcher = new TurnBatcher<string, string>(async (items) => {
      runs.push(items);
      return items.map((item) => item.toUpperCase());
    });
    const answers = await Promise.all([batcher.add('a', 'x'), batcher.add('b', 'y'), batcher.add('a', 'z')]);
    assert.deepEqual(answers, ['X', 'Y', 'Z']);
    assert.deepEqual(runs, [['x', 'z'], ['y']]);
    await batcher.add('a', 'w');
    assert.deepEqual(runs.at(-1), ['w'], 'a later turn is a run of its own');
  });

  it('fails every item of a batch whose run throws, and only the item answered with a rejection', async () => {
    const batcher = new TurnBatcher<string, string>(async (items) => {
      if (items.includes('boom')) throw new Error('run failed');
      return items.map((item) => (item === 'bad' ? Promise.reject(new Error('item failed')) : item));
    });
    const results = await Promise.allSettled([
      batcher.add('a', 'boom'),
      batcher.add('a', 'fine'),
      batcher.add('b', 'good'),
      batcher.add('b', 'bad'),
    ]);
    assert.deepEqual(
      results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message)),
      ['run failed', 'run failed', 'good', 'item failed'],
    );
  });
});
