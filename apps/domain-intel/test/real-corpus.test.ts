import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedRdapError, parseDomainObject } from '../src/rdap/parse.ts';
import { EXPECTED, filesWithSources, rdapAnswers, realFiles } from './real-corpus.ts';

describe('the corpus of real upstream data', () => {
  it('names the origin of every file in SOURCES.md', () => {
    const listed = filesWithSources();
    const kinds = ['rdap', 'docs', 'exchanges', 'bootstrap', 'cdx', 'zones'];
    const unlisted = kinds.flatMap(realFiles).filter((file) => !listed.has(file));
    assert.deepEqual(unlisted, []);
  });

  it('reads every RDAP answer without crashing: a domain object becomes a record, anything else is refused', () => {
    for (const { id, body } of rdapAnswers()) {
      if (body.objectClassName === 'domain') {
        const record = parseDomainObject(body, 'x.test');
        assert.equal(record.registered, true, id);
      } else {
        assert.throws(() => parseDomainObject(body, 'x.test'), MalformedRdapError, id);
      }
    }
  });
});

describe('real RDAP answers, read field by field', () => {
  const answers = new Map(rdapAnswers().map((answer) => [answer.id, answer.body]));
  for (const [id, { name, expect }] of Object.entries(EXPECTED)) {
    it(id, () => expect(parseDomainObject(answers.get(id) ?? {}, name)));
  }
});
