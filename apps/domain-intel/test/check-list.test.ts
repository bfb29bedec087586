import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { splitDomainList } from '../src/routes/v1/check.ts';

describe('/v1/check domains= list', () => {
  const name = fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('com', 'org', 'co.uk'), fc.boolean())
    .map(([label, tld, shout]) => (shout ? `${label}.${tld}`.toUpperCase() : `${label}.${tld}`));

  it('property: trimmed, de-duplicated on the normalised name, first occurrence order kept', () => {
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 40 }),
        fc.array(fc.constantFrom('', ' ', '\t')),
        (names, pads) => {
          const list = names.map((entry, i) => `${pads[i % Math.max(1, pads.length)] ?? ''}${entry} `).join(',');
          const result = splitDomainList(list);
          const expected: string[] = [];
          const seen = new Set<string>();
          for (const entry of names) {
            if (seen.has(entry.toLowerCase())) continue;
            seen.add(entry.toLowerCase());
            expected.push(entry);
          }
          assert.deepEqual(result, expected);
        },
      ),
    );
  });

  it('refuses empty entries with empty_domain_entry', () => {
    for (const list of ['a.com,,b.com', 'a.com,', ',a.com', ' , ', '']) {
      assert.throws(() => splitDomainList(list), { code: 'empty_domain_entry' }, list);
    }
  });

  it('keeps invalid entries (they get their own row) and de-duplicates them by their text', () => {
    assert.deepEqual(splitDomainList('bad_name.com, BAD_NAME.com,ok.com'), ['bad_name.com', 'ok.com']);
  });
});
