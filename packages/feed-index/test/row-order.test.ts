import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROW_ORDER_BYTE_LIMIT, rowAt, rowOrderBytes, rowOrderOf } from '../src/row-order.ts';

/** A permutation of `size` positions that puts the largest ones (all bits used) among the first. */
function reversed(size: number): Uint32Array {
  const positions = new Uint32Array(size);
  for (let k = 0; k < size; k++) positions[k] = size - 1 - k;
  return positions;
}

test('a permutation below 2^24 rows reads back exactly from 3 bytes a row', () => {
  const size = 70_000; // positions above 2^16: the high byte is used
  const positions = reversed(size);
  const order = rowOrderOf(positions.slice());
  assert.ok(order.high instanceof Uint8Array);
  assert.equal(rowOrderBytes(order), 3 * size);
  for (let k = 0; k < size; k++) assert.equal(rowAt(order, k), positions[k]);
});

test('at 2^24 rows the last position still fits a byte; one row more takes 2 bytes of high bits', () => {
  const atLimit = rowOrderOf(reversed(ROW_ORDER_BYTE_LIMIT));
  assert.ok(atLimit.high instanceof Uint8Array);
  assert.equal(rowAt(atLimit, 0), ROW_ORDER_BYTE_LIMIT - 1);

  const beyond = rowOrderOf(reversed(ROW_ORDER_BYTE_LIMIT + 1));
  assert.ok(beyond.high instanceof Uint16Array);
  assert.equal(rowOrderBytes(beyond), 4 * (ROW_ORDER_BYTE_LIMIT + 1));
  assert.equal(rowAt(beyond, 0), ROW_ORDER_BYTE_LIMIT);
  assert.equal(rowAt(beyond, 1), ROW_ORDER_BYTE_LIMIT - 1);
  assert.equal(rowAt(beyond, ROW_ORDER_BYTE_LIMIT), 0);
});
