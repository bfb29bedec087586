import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDomainIntelConfig } from '../src/config.ts';
import { HostRates } from '../src/rdap/host-rates.ts';

describe('RDAP rates from what registries document', () => {
  it('holds CentralNic to its published 1,800 queries per 15 minutes (2/s) and every other host to the default 10/s', () => {
    const config = loadDomainIntelConfig({});
    assert.equal(config.RDAP_HOST_RATE_PER_SECOND, 10);
    assert.deepEqual(config.RDAP_HOST_RATES, { 'rdap.centralnic.com': 2 });
    assert.equal(1_800 / (15 * 60), 2);
    const rates = new HostRates(config.RDAP_HOST_RATE_PER_SECOND, config.RDAP_HOST_RATES);
    assert.equal(rates.of('rdap.centralnic.com'), 2);
    assert.equal(rates.of('rdap.verisign.com'), 10);
    assert.equal(rates.of('rdap.publicinterestregistry.org'), 10);
  });

  it('replaces the built-in map with the one configured', () => {
    const config = loadDomainIntelConfig({ RDAP_HOST_RATES: '{"rdap.verisign.com":50}' });
    assert.deepEqual(config.RDAP_HOST_RATES, { 'rdap.verisign.com': 50 });
  });
});
