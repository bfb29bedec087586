import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { generateCandidates, pluralOf } from '../src/suggest/candidates.ts';
import { parseKeyword } from '../src/suggest/keyword.ts';
import { scoreCandidate } from '../src/suggest/ranking.ts';
import { resolveTlds } from '../src/suggest/tld-selection.ts';

const DEFAULTS = ['com', 'net', 'org', 'io'];
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { status: (error as { status: number }).status, code: (error as { code: string }).code };
  }
  return undefined;
};
const rankedDomains = (keywordText: string, tlds = DEFAULTS) =>
  generateCandidates(parseKeyword(keywordText), tlds)
    .map((candidate) => ({ domain: candidate.domain, kind: candidate.kind, score: scoreCandidate(candidate, 0) }))
    .sort((a, b) => b.score - a.score || a.domain.length - b.domain.length);

describe('keyword normalisation', () => {
  it('splits words on spaces, hyphens and punctuation, lowercases and NFKC-normalises', () => {
    assert.deepEqual(parseKeyword('  Coffee  Shop ').words, ['coffee', 'shop']);
    assert.deepEqual(parseKeyword('web-design_studio!').words, ['web', 'design', 'studio']);
    assert.deepEqual(parseKeyword('ＣＡＦＥ').words, ['cafe']);
    assert.deepEqual(parseKeyword('Café Münster').words, ['café', 'münster']);
    assert.equal(parseKeyword('web3 tools').joined, 'web3tools');
  });

  it('reads a keyword that is a domain as its label, with its TLD as a hint', () => {
    assert.deepEqual(parseKeyword('CoolShop.com'), { words: ['coolshop'], joined: 'coolshop', tldHint: 'com' });
  });

  it('refuses empty, too long and unusable keywords with 400 codes', () => {
    assert.deepEqual(
      code(() => parseKeyword('')),
      { status: 400, code: 'keyword_required' },
    );
    assert.deepEqual(
      code(() => parseKeyword(undefined)),
      { status: 400, code: 'keyword_required' },
    );
    assert.deepEqual(
      code(() => parseKeyword('a'.repeat(101))),
      { status: 400, code: 'keyword_too_long' },
    );
    assert.deepEqual(
      code(() => parseKeyword('a'.repeat(64))),
      { status: 400, code: 'keyword_too_long' },
    );
    assert.deepEqual(
      code(() => parseKeyword('!!! ☕ ---')),
      { status: 400, code: 'keyword_unusable' },
    );
  });
});

describe('TLD selection', () => {
  it('uses the defaults, hinted TLD first, or the caller list in order', () => {
    assert.deepEqual(resolveTlds(undefined, DEFAULTS), DEFAULTS);
    assert.deepEqual(resolveTlds('', DEFAULTS, 'io'), ['io', 'com', 'net', 'org']);
    assert.deepEqual(resolveTlds(' .IO, com,io ', DEFAULTS), ['io', 'com']);
    assert.deepEqual(resolveTlds('co.uk', DEFAULTS), ['co.uk']);
  });

  it('refuses unknown, empty and too many TLDs', () => {
    assert.deepEqual(
      code(() => resolveTlds('com,notatld', DEFAULTS)),
      { status: 400, code: 'unknown_tld' },
    );
    assert.deepEqual(
      code(() => resolveTlds('c*m', DEFAULTS)),
      { status: 400, code: 'unknown_tld' },
    );
    assert.deepEqual(
      code(() => resolveTlds(',,', DEFAULTS)),
      { status: 400, code: 'invalid_tld' },
    );
    const many = ['com', 'net', 'org', 'io', 'co', 'ai', 'app', 'dev', 'xyz', 'info', 'biz', 'me', 'tv', 'us'];
    assert.deepEqual(
      code(() => resolveTlds([...many, 'uk', 'de', 'fr', 'nl', 'eu', 'ca', 'au'].join(','), DEFAULTS)),
      { status: 400, code: 'too_many_tlds' },
    );
  });
});

describe('candidates and ranking', () => {
  it('single word: the exact keyword ranks first, in TLD preference order, then its variations', () => {
    const ranked = rankedDomains('coffee');
    assert.deepEqual(
      ranked.slice(0, 4).map((r) => r.domain),
      ['coffee.com', 'coffee.net', 'coffee.org', 'coffee.io'],
    );
    const domains = ranked.map((r) => r.domain);
    for (const expected of ['getcoffee.com', 'trycoffee.io', 'coffeehq.com', 'coffeeapp.net', 'coffees.com']) {
      assert.ok(domains.includes(expected), expected);
    }
    assert.equal(ranked.find((r) => r.domain === 'coffee.net')!.kind, 'tld_swap');
    assert.ok(
      ranked.findIndex((r) => r.domain === 'coffees.com') < ranked.findIndex((r) => r.domain === 'coffeestudio.com'),
    );
  });

  it('multi word: joined before hyphenated, and shorter before longer', () => {
    const ranked = rankedDomains('coffee shop', ['com']);
    const at = (domain: string) => ranked.findIndex((r) => r.domain === domain);
    assert.equal(ranked[0]!.domain, 'coffeeshop.com');
    assert.ok(at('coffee-shop.com') > 0);
    assert.ok(at('coffeeshops.com') < at('coffee-shop.com'), 'plural before hyphenated (hyphen penalty)');
    assert.ok(at('mycoffeeshop.com') < at('meetcoffeeshop.com'), 'shorter prefix first');
    assert.equal(ranked.find((r) => r.domain === 'coffee-shop.com')!.kind, 'hyphenated');
  });

  it('IDN keywords become punycode names, with Unicode kept for display and length', () => {
    const candidates = generateCandidates(parseKeyword('Café'), ['com']);
    const exact = candidates.find((candidate) => candidate.kind === 'exact')!;
    assert.equal(exact.domain, 'xn--caf-dma.com');
    assert.equal(exact.unicodeDomain, 'café.com');
    assert.ok(candidates.some((candidate) => candidate.domain === 'xn--getcaf-gva.com'));
    assert.ok(candidates.some((candidate) => candidate.unicodeDomain === 'cafés.com'));
    const chinese = generateCandidates(parseKeyword('咖啡'), ['com']);
    assert.equal(chinese[0]!.unicodeDomain, '咖啡.com');
    assert.ok(!chinese.some((candidate) => candidate.kind === 'plural'), 'no English plural for Han script');
  });

  it('makes domain hacks from a keyword ending in a TLD, and no name twice', () => {
    const candidates = generateCandidates(parseKeyword('move online'), ['com', 'online']);
    assert.ok(candidates.some((c) => c.domain === 'move.online' && c.kind === 'domain_hack'));
    assert.ok(!candidates.some((c) => c.domain === 'move.com'));
    assert.equal(new Set(candidates.map((c) => c.domain)).size, candidates.length);
  });

  it('scores with the documented rules: hyphens, digits, length, TLD position and alt-TLD demand', () => {
    const [plain] = generateCandidates(parseKeyword('shop'), ['com']);
    assert.equal(scoreCandidate(plain!, 0), 80);
    assert.equal(scoreCandidate(plain!, 2), 86);
    assert.equal(scoreCandidate(plain!, 10), 95, 'demand is capped at 15');
    const [digits] = generateCandidates(parseKeyword('shop24'), ['com']);
    assert.equal(scoreCandidate(digits!, 0), 74);
    const hyphenated = generateCandidates(parseKeyword('big shop'), ['com', 'net']).find(
      (c) => c.kind === 'hyphenated' && c.tld === 'net',
    )!;
    assert.equal(scoreCandidate(hyphenated, 0), 44 - 2 - 8 + 18);
  });

  it('at equal demand, the exact keyword in the first five TLDs outranks every variation (property)', () => {
    const tlds = ['com', 'net', 'org', 'info', 'biz', 'xyz'];
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 3 }), (words) => {
        const candidates = generateCandidates(parseKeyword(words.join(' ')), tlds);
        const exactScores = candidates
          .filter((c) => (c.kind === 'exact' || c.kind === 'tld_swap') && c.tldRank < 5)
          .map((c) => scoreCandidate(c, 0));
        const variationScores = candidates
          .filter((c) => ['plural', 'hyphenated', 'prefix', 'suffix'].includes(c.kind))
          .map((c) => scoreCandidate(c, 0));
        assert.ok(Math.min(...exactScores) > Math.max(...variationScores));
      }),
      { numRuns: 200 },
    );
  });

  it('pluralises English words', () => {
    assert.equal(pluralOf('box'), 'boxes');
    assert.equal(pluralOf('city'), 'cities');
    assert.equal(pluralOf('day'), 'days');
    assert.equal(pluralOf('news'), undefined);
  });
});
