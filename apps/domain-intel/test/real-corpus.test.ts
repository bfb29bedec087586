import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedRdapError, parseDomainObject } from '../src/rdap/parse.ts';
import { EXPECTED, filesWithSources, readRealJson, realFiles } from './real-corpus.ts';

describe('the corpus of real upstream data', () => {
  it('names the origin of every file in SOURCES.md', () => {
    const listed = filesWithSources();
    const kinds = ['rdap', 'exchanges', 'bootstrap', 'cdx', 'zones'];
    const unlisted = kinds.flatMap(realFiles).filter((file) => !listed.has(file));
    assert.deepEqual(unlisted, []);
  });

  it('reads every RDAP answer without crashing: a domain object becomes a record, anything else is refused', () => {
    for (const file of realFiles('rdap')) {
      const body = readRealJson(file);
      if (body.objectClassName === 'domain') {
        const record = parseDomainObject(body, 'x.test');
        assert.equal(record.registered, true, file);
      } else {
        assert.throws(() => parseDomainObject(body, 'x.test'), MalformedRdapError, file);
      }
    }
  });
});

describe('real RDAP answers, read field by field', () => {
  for (const [file, { name, expect }] of Object.entries(EXPECTED)) {
    it(`${file}`, () => expect(parseDomainObject(readRealJson(file), name)));
  }
});
