import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { domainToASCII } from 'node:url';
import { isAppError } from '@repo/server-kit';
import { brandHits } from '../src/brand/brand-round.ts';
import { normalizeBrandTerm } from '../src/brand/brand-term.ts';

/** Why each domain matched the terms (domain → `term:kind`), only the domains that did. */
function reasons(domains: string[], terms: string[]): Record<string, string[]> {
  const rows = domains.map((domain) => ({ domain, tld: domain.slice(domain.lastIndexOf('.') + 1) }));
  const out: Record<string, string[]> = {};
  for (const [brand, hits] of brandHits(rows, terms)) {
    for (const hit of hits) {
      const domain = rows[hit.position]!.domain;
      out[domain] = [...(out[domain] ?? []), `${brand}:${hit.match.kind}`];
    }
  }
  return out;
}

const refusal = (raw: unknown) => {
  try {
    normalizeBrandTerm(raw);
  } catch (error) {
    assert.ok(isAppError(error));
    return { code: error.code, status: error.status, message: error.message };
  }
  assert.fail(`${String(raw)} was accepted`);
};

describe('brand terms', () => {
  it('normalises a term to Unicode NFC lowercase and decodes an xn-- term', () => {
    assert.equal(normalizeBrandTerm(' PayPal '), 'paypal');
    assert.equal(normalizeBrandTerm('bu\u0308cher'), 'b\u00fccher');
    assert.equal(normalizeBrandTerm('xn--bcher-kva'), 'b\u00fccher');
  });

  it('refuses a one-letter term, a TLD, other characters and overlong terms with clear messages', () => {
    const short = refusal('x');
    assert.deepEqual([short.code, short.status], ['invalid_brand_term', 400]);
    assert.match(short.message, /at least 3 characters; "x" has 1/);
    assert.match(refusal('ab').message, /at least 3/);
    assert.match(refusal('paypal.com').message, /without TLD/);
    assert.match(refusal('pay pal').message, /letters, digits and inner hyphens/);
    assert.match(refusal('-paypal').message, /inner hyphens/);
    assert.match(refusal('a'.repeat(64)).message, /at most 63/);
    assert.equal(refusal(42).code, 'invalid_brand_term');
  });
});

describe('brand matching', () => {
  it('names the kind of every lookalike', () => {
    const cyrillicA = 'p\u0430ypal'; // Cyrillic а
    const idn = `${domainToASCII(cyrillicA)}.com`;
    assert.match(idn, /^xn--/);
    assert.deepEqual(
      reasons(
        [
          'paypal.net',
          idn,
          'paypa1.com',
          'paypa1-login.com',
          'payapl.com',
          'paypall.com',
          'pay-pal.com',
          'p-ay-pal.org',
          'paypal24.com',
          'pay-pal-7.com',
          'paypak.com',
          'paypl.com',
          'mypaypal-login.com',
          'unrelated.com',
        ],
        ['paypal'],
      ),
      {
        'paypal.net': ['paypal:exact'],
        [idn]: ['paypal:homoglyph'],
        'paypa1.com': ['paypal:homoglyph'],
        'paypa1-login.com': ['paypal:homoglyph'],
        'payapl.com': ['paypal:transposition'],
        'paypall.com': ['paypal:doubled_letter'],
        'pay-pal.com': ['paypal:hyphen_inserted'],
        'p-ay-pal.org': ['paypal:hyphen_inserted'],
        'paypal24.com': ['paypal:digit_inserted'],
        'pay-pal-7.com': ['paypal:digit_inserted'],
        'paypak.com': ['paypal:one_edit'],
        'paypl.com': ['paypal:one_edit'],
        'mypaypal-login.com': ['paypal:contains'],
      },
    );
  });

  it('finds IDN terms in xn-- labels, and matches many terms in one pass', () => {
    const buecher = domainToASCII('b\u00fccher-shop');
    assert.deepEqual(
      reasons([`${buecher}.com`, 'nike-store.com', 'nkie.com', 'acme.com'], ['bücher', 'nike', 'acme']),
      {
        [`${buecher}.com`]: ['bücher:contains'],
        'nike-store.com': ['nike:contains'],
        'acme.com': ['acme:exact'],
      },
    );
  });

  it('keeps short terms to near-exact lookalikes: no edits under 5 characters, no contains under 4', () => {
    // 'ibm' (3): only the label itself, its skeleton twins and the term with hyphens or digits added.
    assert.deepEqual(
      reasons(['ibm.com', 'ibn.com', 'ibx.com', 'bim.com', 'ibmshop.com', 'i-bm.com', 'ibm1.com', 'ibrn.com'], ['ibm']),
      {
        'ibm.com': ['ibm:exact'],
        'i-bm.com': ['ibm:hyphen_inserted'],
        'ibm1.com': ['ibm:digit_inserted'],
        'ibrn.com': ['ibm:homoglyph'],
      },
    );
    // 'nike' (4): contains, but not one edit away.
    assert.deepEqual(reasons(['nikes.com', 'mike.com', 'nkie.com', 'nikeshoes.com'], ['nike']), {
      'nikes.com': ['nike:contains'],
      'nikeshoes.com': ['nike:contains'],
    });
    // Two edits away from a long term is no match.
    assert.deepEqual(reasons(['pyapla.com', 'paypxyz.com'], ['paypal']), {});
  });
});
