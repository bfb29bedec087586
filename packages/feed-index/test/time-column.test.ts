import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TimeColumn } from '../src/time-column.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');

const encoded = (times: number[]) => {
  const raw = TimeColumn.raw(Float64Array.from(times));
  return TimeColumn.encode([raw], times.length, (k) => raw.time(k));
};

/** Whether each row passes [min, max] by its codes, as the index's loops compare them. */
const passing = (column: TimeColumn, min: number, max: number) => {
  const bound = column.bound(min, max);
  return Array.from(column.codes, (code) => code >= bound.min && code <= bound.max);
};

describe('time columns as codes (exact to the millisecond)', () => {
  test('base is the earliest time, unit the greatest common divisor of the distances, NULL kept as NULL', () => {
    const column = encoded([T0 + 3 * DAY, Number.NaN, T0, T0 + DAY]);
    assert.equal(column.codes instanceof Uint32Array, true);
    assert.deepEqual([column.base, column.unit], [T0, DAY]);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => column.time(i)),
      [T0 + 3 * DAY, Number.NaN, T0, T0 + DAY],
    );
    assert.equal(column.missing(column.codes[1]!), true);
    assert.equal(column.missing(column.codes[2]!), false);
  });

  test('no time at all, and one time only, are codes too', () => {
    assert.equal(encoded([Number.NaN, Number.NaN]).codes instanceof Uint32Array, true);
    assert.deepEqual([encoded([T0, T0]).time(1), encoded([Number.NaN]).time(0)], [T0, Number.NaN]);
  });

  test('a span of more than 2^32 - 1 units, or a fractional time, keeps the times as Float64', () => {
    const wide = encoded([T0, T0 + 1, T0 + 2 ** 32]);
    assert.equal(wide.codes instanceof Float64Array, true);
    assert.equal(wide.time(2), T0 + 2 ** 32);
    assert.equal(encoded([T0, T0 + 0.5]).codes instanceof Float64Array, true);
    const widest = encoded([T0, T0 + 1000, T0 + (2 ** 32 - 2) * 1000]);
    assert.equal(widest.codes instanceof Uint32Array, true);
    assert.equal(widest.time(2), T0 + (2 ** 32 - 2) * 1000);
  });

  test('a bound in codes passes exactly the rows whose times pass it, whatever the ends', () => {
    const times = [T0, T0 + 1000, T0 + 5000, T0 + 60_000, Number.NaN, T0 + DAY];
    const ends = [
      -Infinity,
      Infinity,
      T0 - 1,
      T0,
      T0 + 1,
      T0 + 999,
      T0 + 1000,
      T0 + 1001,
      T0 + 4999,
      T0 + DAY,
      T0 + DAY + 1,
    ];
    for (const column of [encoded(times), TimeColumn.raw(Float64Array.from(times))]) {
      for (const min of ends) {
        for (const max of ends) {
          if (min === Infinity || max === -Infinity) continue;
          const expected = times.map((time) => time >= min && time <= max);
          assert.deepEqual(passing(column, min, max), expected, `[${min - T0}, ${max - T0}]`);
        }
      }
    }
  });

  test('a code above every time a bound lets through is NULL, so an open bound still leaves NULL out', () => {
    const column = encoded([T0, Number.NaN]);
    assert.deepEqual(passing(column, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY), [true, false]);
  });
});
