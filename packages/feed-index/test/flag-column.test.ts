import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FlagColumn } from '../src/flag-column.ts';

test('a 0/1 column keeps each row’s value in its bitmap of zeros, and refuses any other value', () => {
  const values = Array.from({ length: 70 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const column = new FlagColumn(new Uint32Array(FlagColumn.words(values.length)));
  for (const [i, value] of values.entries()) column.set(i, value);
  column.set(5, 1);
  values[5] = 1;
  assert.deepEqual(
    values.map((_, i) => column.value(i)),
    values,
  );
  assert.deepEqual(
    values.map((_, i) => column.isZero(i)),
    values.map((value) => value === 0),
  );
  assert.throws(() => column.set(0, 2), /0\/1 column was given 2/);
  assert.deepEqual(FlagColumn.passing(0, 0), { zero: true, one: false });
  assert.deepEqual(FlagColumn.passing(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY), { zero: true, one: true });
});
