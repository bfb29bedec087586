import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '@repo/server-kit';
import fc from 'fast-check';
import { normalizeDomain, parseDomain } from '../src/domain/normalize.ts';

const codeOf = (input: string) => {
  const result = parseDomain(input);
  return result.ok ? 'ok' : result.error.code;
};

describe('domain normaliser', () => {
  it('trims, lowercases, drops one trailing dot and splits on the public suffix list', () => {
    assert.deepEqual(normalizeDomain('  Example.COM. '), {
      name: 'example.com',
      unicodeName: 'example.com',
      label: 'example',
      tld: 'com',
    });
    assert.deepEqual(normalizeDomain('example.co.uk'), {
      name: 'example.co.uk',
      unicodeName: 'example.co.uk',
      label: 'example',
      tld: 'co.uk',
    });
  });

  it('converts IDN to punycode and keeps the Unicode form', () => {
    const domain = normalizeDomain('MÜNCHEN.de');
    assert.equal(domain.name, 'xn--mnchen-3ya.de');
    assert.equal(domain.unicodeName, 'münchen.de');
    assert.equal(normalizeDomain('пример.рф').name, 'xn--e1afmkfd.xn--p1ai');
    assert.equal(normalizeDomain('xn--mnchen-3ya.de').unicodeName, 'münchen.de');
  });

  it('refuses bad input with a specific code', () => {
    const cases: Record<string, string> = {
      '': 'invalid_domain',
      '   ': 'invalid_domain',
      'example..com': 'invalid_domain',
      'a_b.com': 'invalid_domain',
      '-a.com': 'invalid_domain',
      'a-.com': 'invalid_domain',
      'ab--cd.com': 'invalid_domain',
      'xn--zz.com': 'invalid_domain',
      'http://x.com': 'invalid_domain',
      'ex/ample.com': 'invalid_domain',
      '%41.com': 'invalid_domain',
      'a.com:80': 'invalid_domain',
      'x@y.com': 'invalid_domain',
      'exa mple.com': 'invalid_domain',
      'example.com..': 'invalid_domain',
      '127.0.0.1': 'ip_address_not_allowed',
      '127.1': 'ip_address_not_allowed',
      '[::1]': 'ip_address_not_allowed',
      '2001:db8::1': 'ip_address_not_allowed',
      'foo.unknowntld': 'unsupported_tld',
      'example.local': 'unsupported_tld',
      com: 'bare_tld',
      'co.uk': 'bare_tld',
      'www.example.com': 'subdomain_not_allowed',
      'a.b.example.co.uk': 'subdomain_not_allowed',
      'foo.blogspot.com': 'subdomain_not_allowed',
      [`${'a'.repeat(64)}.com`]: 'label_too_long',
      [`${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`]: 'domain_too_long',
    };
    for (const [input, code] of Object.entries(cases))
      assert.equal(codeOf(input), code, `input ${JSON.stringify(input)}`);
    assert.equal(codeOf(`${'a'.repeat(63)}.com`), 'ok');
  });

  it('throws a 400 AppError carrying the code and the input', () => {
    try {
      normalizeDomain('www.example.com');
      assert.fail('expected a throw');
    } catch (error) {
      assert.ok(isAppError(error));
      assert.equal(error.status, 400);
      assert.equal(error.code, 'subdomain_not_allowed');
      assert.deepEqual(error.details, { domain: 'www.example.com' });
    }
  });

  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== '--');
  const tld = fc.constantFrom('com', 'net', 'org', 'co.uk', 'de', 'xyz', 'com.au');

  it('property: any valid label under a known suffix normalises to itself, idempotently', () => {
    fc.assert(
      fc.property(label, tld, fc.boolean(), fc.boolean(), (l, t, upper, dot) => {
        const input = `${upper ? l.toUpperCase() : l}.${t}${dot ? '.' : ''}`;
        const domain = normalizeDomain(input);
        assert.equal(domain.name, `${l}.${t}`);
        assert.equal(domain.label, l);
        assert.equal(domain.tld, t);
        assert.deepEqual(normalizeDomain(domain.name), domain);
        assert.deepEqual(normalizeDomain(domain.unicodeName), domain);
      }),
    );
  });

  it('IDNA2008: emoji and symbols are invalid, typed as Unicode or as A-labels; real IDNs pass', () => {
    for (const name of ['😀.com', 'xn--e28h.com', '☃.net', 'xn--ls8h.la', 'i❤.ws']) {
      assert.equal(codeOf(name), 'invalid_domain', name);
    }
    // ZERO WIDTH JOINER outside the contexts RFC 5892 allows it in.
    assert.equal(codeOf('a\u200db.com'), 'invalid_domain');
    // Non-transitional UTS #46: ß stays ß (xn--fa-hia), it does not become "ss".
    assert.equal(normalizeDomain('faß.de').name, 'xn--fa-hia.de');
    assert.equal(normalizeDomain('münchen.de').name, 'xn--mnchen-3ya.de');
    assert.equal(normalizeDomain('اختبار.com').name, 'xn--mgbachtv.com');
  });

  it('property: never throws anything but a 400 and every success is a valid LDH name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (input) => {
        const result = parseDomain(input);
        if (!result.ok) return;
        const { name } = result.domain;
        assert.ok(name.length <= 253);
        for (const part of name.split('.')) {
          assert.match(part, /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/);
        }
        assert.deepEqual(parseDomain(name), { ok: true, domain: result.domain });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a subdomain of a valid name is refused with subdomain_not_allowed', () => {
    fc.assert(
      fc.property(label, label, tld, (sub, l, t) => {
        assert.equal(codeOf(`${sub}.${l}.${t}`), 'subdomain_not_allowed');
      }),
    );
  });
});
