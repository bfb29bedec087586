import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bitmapFor, type FeedColumnRow, FeedColumns } from '@repo/feed-index';
import { labelGrams, markLabelGrams } from '@repo/feed-index/label-grams.ts';
import fc from 'fast-check';

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
  const label = fc.stringMatching(/^[ab1-][ab1_A-]{0,13}$/);
  // Long needles too (up to 12 bytes), drawn also from the labels themselves so that they match.
  const needle = fc.oneof(fc.stringMatching(/^[ab1-]{1,12}$/), fc.stringMatching(/^[ab1-]{4,6}$/));

  test('1-3 byte needles mark exactly the labels holding them; longer ones a superset, exact once checked', () => {
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 300 }),
        fc.array(needle, { maxLength: 20 }),
        // The default, and thresholds low enough that substrings of 4+ bytes get row lists of their own.
        fc.constantFrom(undefined, 2, 5),
        (labels, needles, commonRows) => {
          const fromLabels = labels.flatMap((text) => (text.length >= 4 ? [text.slice(1, 9), text.slice(0, 4)] : []));
          needles = [...needles, ...fromLabels.filter((text) => /^[ab1-]+$/.test(text)).slice(0, 10)];
          const domains = labels.map((text, i) => `${text}.${['com', 'ab1', 'net'][i % 3]}`);
          const columns = FeedColumns.fromRows(domains.map(row));
          const grams = labelGrams(columns, commonRows);
          const bits = bitmapFor(columns.size);
          for (const text of needles) {
            const answer = markLabelGrams(grams, Buffer.from(text, 'latin1'), bits);
            const holding = labels.flatMap((value, i) => (value.includes(text) ? [i] : []));
            const marked = rowsWith(bits, columns.size);
            if (text.length <= 3 || answer === 'exact') {
              assert.equal(answer, 'exact');
              assert.deepEqual(marked, holding, `needle ${text}`);
            } else {
              assert.equal(answer, 'candidates');
              assert.ok(
                holding.every((i) => marked.includes(i)),
                `needle ${text}: a row holding it is not a candidate`,
              );
              const checked = marked.filter((i) => columns.labelContains(i, Buffer.from(text, 'latin1')));
              assert.deepEqual(checked, holding, `needle ${text}: the byte check of the candidates`);
            }
          }
        },
      ),
      { numRuns: 200, seed: 3 },
    );
  });

  test('a long needle takes the rows holding all its trigrams, and the byte check drops those not consecutive', () => {
    // abcd: abc and bcd in every label but the first two, consecutive only in `abcd` and `xabcdx`.
    // 32 filler labels before each, so the rows lie in different words of the bitmaps, with words between.
    const labels = ['zbcd', 'abcz', 'abcxbcd', 'bcdabc', 'abcd', 'xabcdx', 'abcabcbcd'];
    const filler = (i: number) => Array.from({ length: 32 }, (_, k) => `f${i}x${k}`);
    const columns = FeedColumns.fromRows(
      labels.flatMap((text, i) => [...filler(i), text]).map((text) => row(`${text}.com`)),
    );
    const at = (...indexes: number[]) => indexes.map((i) => 33 * i + 32);
    const grams = labelGrams(columns);
    const bits = bitmapFor(columns.size);
    const marked = (needle: string) => {
      assert.equal(markLabelGrams(grams, Buffer.from(needle), bits), 'candidates');
      return rowsWith(bits, columns.size);
    };
    const checked = (needle: string) => marked(needle).filter((i) => columns.labelContains(i, Buffer.from(needle)));
    assert.deepEqual(marked('abcd'), at(2, 3, 4, 5, 6));
    assert.deepEqual(checked('abcd'), at(4, 5));
    // 5+ bytes: every trigram of `cdabc` is only in row 3; `bcabcb` only in row 6, where it is the needle.
    assert.deepEqual(checked('cdabc'), at(3));
    assert.deepEqual(marked('bcabcb'), at(6));
    // Every trigram of `abcabcd` is in row 6, never consecutively.
    assert.deepEqual(marked('abcabcd'), at(6));
    assert.deepEqual(checked('abcabcd'), []);
    // A needle none of whose rows hold all its trigrams.
    assert.deepEqual(marked('zbcdabc'), []);
  });

  test('a substring of 4+ bytes that enough rows hold is answered exactly from its own rows', () => {
    // `tion` in 4 rows (at the start, the end, the middle, twice), `ation` in 2, `xn--` in 3 (the IDN prefix).
    const labels = [
      'tionx',
      'nation',
      'station',
      'motions',
      'tiontion',
      'tio-n',
      'xn--caf-dma',
      'xn--1lq90i',
      'axn--b',
    ];
    const columns = FeedColumns.fromRows(labels.map((text) => row(`${text}.com`)));
    const bits = bitmapFor(columns.size);
    const holding = (needle: string) => labels.flatMap((text, i) => (text.includes(needle) ? [i] : []));
    const grams = labelGrams(columns, 3);
    for (const needle of ['tion', 'xn--', 'tiontio', 'tions']) {
      const common = holding(needle).length >= 3;
      assert.equal(markLabelGrams(grams, Buffer.from(needle), bits), common ? 'exact' : 'candidates', needle);
      const marked = rowsWith(bits, columns.size);
      const checked = common ? marked : marked.filter((i) => columns.labelContains(i, Buffer.from(needle)));
      assert.deepEqual(checked, holding(needle), needle);
    }
    // Held by 2 rows, under the threshold of 3: candidates (every row with `ati` and `tio` and `ion`, and `tion`).
    assert.equal(markLabelGrams(grams, Buffer.from('ation'), bits), 'candidates');
    assert.deepEqual(rowsWith(bits, columns.size), holding('ation'));
    // With the default threshold (64 rows) none of them is common.
    assert.equal(markLabelGrams(labelGrams(columns), Buffer.from('tion'), bits), 'candidates');
  });

  test('the byte check never matches across the label end', () => {
    const columns = FeedColumns.fromRows([row('ab.abcd'), row('xabcd.com')]);
    assert.equal(columns.labelContains(0, Buffer.from('abcd')), false);
    assert.equal(columns.labelContains(0, Buffer.from('ab')), true);
    assert.equal(columns.labelContains(1, Buffer.from('abcd')), true);
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
