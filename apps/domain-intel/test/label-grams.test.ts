import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bitmapFor } from '../src/feed/feed-clusters.ts';
import { type FeedColumnRow, FeedColumns } from '../src/feed/feed-columns.ts';
import { labelGrams, markLabelGrams } from '../src/feed/label-grams.ts';

const row = (domain: string): FeedColumnRow => ({
  domain,
  tld: domain.slice(domain.indexOf('.') + 1),
  status: 'dropped',
  dropped_at: null,
  first_archived_at: null,
  alt_tld_count: null,
  da: null,
  tf: null,
  length: domain.indexOf('.'),
  has_hyphen: 0,
  has_digit: 0,
  expected_drop_at: null,
});

const rowsWith = (bits: Uint32Array, size: number) =>
  Array.from({ length: size }, (_, i) => i).filter((i) => (bits[i >>> 5]! >>> (i & 31)) & 1);

describe('label grams (the contains prefilter)', () => {
  // Few symbols, so trigrams repeat across rows and some lists come out as bitmaps, others as gap lists;
  // `_` and `A` are bytes outside the alphabet, which end a trigram as the label's end does.
  const label = fc.stringMatching(/^[ab1-][ab1_A-]{0,6}$/);
  const needle = fc.stringMatching(/^[ab1-]{1,5}$/);

  test('1-3 byte needles mark exactly the labels holding them; longer ones a superset', () => {
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 300 }),
        fc.array(needle, { maxLength: 20 }),
        (labels, needles) => {
          const domains = labels.map((text, i) => `${text}.${['com', 'ab1', 'net'][i % 3]}`);
          const columns = FeedColumns.fromRows(domains.map(row));
          const grams = labelGrams(columns);
          const bits = bitmapFor(columns.size);
          for (const text of needles) {
            const answer = markLabelGrams(grams, Buffer.from(text, 'latin1'), bits);
            const holding = labels.flatMap((value, i) => (value.includes(text) ? [i] : []));
            const marked = rowsWith(bits, columns.size);
            if (text.length <= 3) {
              assert.equal(answer, 'exact');
              assert.deepEqual(marked, holding, `needle ${text}`);
            } else {
              assert.equal(answer, 'candidates');
              assert.ok(
                holding.every((i) => marked.includes(i)),
                `needle ${text}: a row holding it is not a candidate`,
              );
            }
          }
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });

  test('a needle with a byte outside the alphabet is not answered from the grams', () => {
    const columns = FeedColumns.fromRows([row('a_b.com')]);
    assert.equal(markLabelGrams(labelGrams(columns), Buffer.from('a_b'), bitmapFor(1)), 'unindexed');
  });

  test('the text after the label (its TLD) is never matched', () => {
    const columns = FeedColumns.fromRows([row('xy.com'), row('com.net')]);
    const bits = bitmapFor(2);
    markLabelGrams(labelGrams(columns), Buffer.from('com'), bits);
    assert.deepEqual(rowsWith(bits, 2), [1]);
    markLabelGrams(labelGrams(columns), Buffer.from('co'), bits);
    assert.deepEqual(rowsWith(bits, 2), [1]);
  });
});
