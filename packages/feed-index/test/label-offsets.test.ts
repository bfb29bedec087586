import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LabelOffsets, MOST_LABEL_BYTES } from '../src/label-offsets.ts';

test('label starts kept as block anchors and Uint16 distances read back exactly, across blocks', () => {
  const rows = 1500;
  // The longest labels allowed: a block of 512 of them still fits its Uint16 distances.
  const lengths = Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? MOST_LABEL_BYTES : 1 + (i % 63)));
  const expected = [0];
  for (const length of lengths) expected.push(expected.at(-1)! + length);
  const offsets = LabelOffsets.empty(rows);
  expected.forEach((at, i) => {
    offsets.set(i, at);
  });
  assert.deepEqual(
    expected.map((_, i) => offsets.start(i)),
    expected,
  );
  assert.deepEqual(Array.from(offsets.starts(rows)), expected);
  const copy = new LabelOffsets(offsets.state(rows));
  assert.equal(copy.start(rows), expected[rows]);
});

test('a distance past a Uint16 (labels longer than the most allowed) is refused, not wrapped', () => {
  const offsets = LabelOffsets.empty(600);
  offsets.set(0, 0);
  assert.throws(() => offsets.set(1, 0x10000), /more than 127 bytes/);
});
