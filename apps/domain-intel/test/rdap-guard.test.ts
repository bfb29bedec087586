import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertAllowedUrl, guardedLookup, isAllowedAddress } from '@repo/webhooks/address-guard';
import { parseRetryAfter } from '../src/rdap/upstream-failure.ts';

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };

describe('RDAP SSRF guard', () => {
  it('allows public unicast addresses only; insecure mode adds loopback, never private ranges', () => {
    for (const address of ['8.8.8.8', '2001:4860:4860::8888', '192.0.32.10']) {
      assert.equal(isAllowedAddress(address, strict), true, address);
    }
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      'fc00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '224.0.0.1',
      // IPv4-compatible IPv6 (::/96): 127.0.0.1, 10.0.0.1 and 169.254.169.254 in disguise.
      '::7f00:1',
      '::a00:1',
      '::a9fe:a9fe',
      '::169.254.169.254',
      // NAT64, 6to4 and Teredo embed IPv4 addresses; documentation, benchmarking, reserved ranges.
      '64:ff9b::a00:1',
      '2002:a00:1::',
      '2001::1',
      '2001:db8::1',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '100::1',
      'not-an-ip',
    ]) {
      assert.equal(isAllowedAddress(address, strict), false, address);
    }
    assert.equal(isAllowedAddress('127.0.0.1', insecure), true);
    assert.equal(isAllowedAddress('::ffff:127.0.0.1', insecure), true);
    assert.equal(isAllowedAddress('169.254.169.254', insecure), false);
    assert.equal(isAllowedAddress('10.0.0.1', insecure), false);
    assert.equal(isAllowedAddress('::a00:1', insecure), false);
  });

  it('checks scheme, credentials and literal addresses of URLs', () => {
    assert.equal(assertAllowedUrl('https://rdap.verisign.com/com/v1/domain/a.com', strict).host, 'rdap.verisign.com');
    for (const url of [
      'http://rdap.verisign.com/com/v1/',
      'ftp://example.com/',
      'file:///etc/passwd',
      'https://user:pw@rdap.example/',
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://169.254.169.254/',
      'not a url',
    ]) {
      assert.throws(() => assertAllowedUrl(url, strict), { name: 'BlockedAddressError' }, url);
    }
    assert.equal(assertAllowedUrl('http://127.0.0.1:8080/rdap/', insecure).port, '8080');
    assert.throws(() => assertAllowedUrl('http://10.0.0.1/', insecure), { name: 'BlockedAddressError' });
  });

  it('refuses at connect time a host name that resolves to a blocked address', async () => {
    const lookup = guardedLookup(strict);
    const error = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (err) => resolve(err)));
    assert.equal(error?.name, 'BlockedAddressError');
    const allowed = await new Promise<unknown>((resolve) =>
      guardedLookup(insecure)('localhost', { all: true }, (err, addresses) => resolve(err ?? addresses)),
    );
    assert.ok(Array.isArray(allowed));
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Tue, 10 Mar 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tue, 10 Mar 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});
