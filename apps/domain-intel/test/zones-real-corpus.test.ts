import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readZoneFile } from '../src/zones/zone-reader.ts';
import { REAL_DIR } from './real-corpus.ts';

/**
 * The real zone files of the corpus (fixtures/real/zones, origins in SOURCES.md) through the zone
 * reader. Expected names were read off the files by hand (and counted with awk for the root zone).
 */
const zone = (name: string) => path.join(REAL_DIR, 'zones', name);

async function read(file: string, tld: string): Promise<{ names: string[]; error: unknown }> {
  const names: string[] = [];
  try {
    for await (const name of readZoneFile(file, tld).names) names.push(name);
    return { names, error: undefined };
  } catch (error) {
    return { names, error };
  }
}

describe('real zone files through the zone reader', () => {
  it('dnspython test zone: $ORIGIN ., $TTL, parentheses, DS, RRSIG, NSEC, NSEC3; one delegation below the apex', async () => {
    // The apex's own NS (lines 21, 23) is no delegation; `s NS ns.s` under `$ORIGIN example.` (line 127) is.
    const scan = readZoneFile(zone('dnspython-example.zone'), 'example');
    const names: string[] = [];
    for await (const name of scan.names) names.push(name);
    assert.deepEqual(names, ['s.example']);
    assert.equal(scan.stats.sawApexSoa, true);
    assert.equal(scan.stats.skippedOwners, 0);
  });

  it('ldns example zone: multi-line SOA in parentheses, only the apex NS, so no delegation', async () => {
    const scan = readZoneFile(zone('ldns-example.zone'), 'example');
    const names: string[] = [];
    for await (const name of scan.names) names.push(name);
    assert.deepEqual(names, []);
    assert.equal(scan.stats.sawApexSoa, true);
    assert.equal(scan.stats.records, 5);
  });

  it('signed test root (RRSIG, NSEC, DNSKEY): the root ("." or "") is readable; its only NS is the apex', async () => {
    for (const tld of ['.', '']) {
      const scan = readZoneFile(zone('kskr-sentinel-root.zone.signed'), tld);
      const names: string[] = [];
      for await (const name of scan.names) names.push(name);
      assert.deepEqual(names, []);
      assert.equal(scan.stats.sawApexSoa, true);
      assert.equal(scan.stats.records, 18);
    }
  });

  it('the IANA root zone copy is cut off inside its last NS record: the TLDs before it, then a refusal', async () => {
    // 2020-11-27 root zone, 4698 lines; the copy ends in "ga.\t172800\tIN\tNS\t" (no server name).
    const { names, error } = await read(zone('root.zone'), '.');
    assert.equal(names.length, 469);
    assert.deepEqual(names.slice(0, 5), ['aaa', 'aarp', 'abarth', 'abb', 'abbott']);
    assert.deepEqual(names.slice(-3), ['futbol', 'fyi', 'ga']);
    for (const tld of ['com', 'cz', 'de', 'bank', 'app']) assert.ok(names.includes(tld), tld);
    assert.equal(new Set(names).size, names.length, 'the NS records of one TLD are collapsed');
    assert.ok(error instanceof Error);
    assert.equal((error as { code?: string }).code, 'zone_file_invalid');
    assert.match(error.message, /line 4698: an NS record without its name server/);
  });

  it('ldns zone-reader test zone: signed (RRSIG, NSEC, DS), escaped owner names, two delegations', async () => {
    // NS below the apex: test. (line 3081) and sub. (line 3087); escaped owners such as `d\.t`,
    // `\.` and `\(blurb\)\;\012…` hold A, NSEC and RRSIG only; one absolute owner is outside the zone.
    const scan = readZoneFile(zone('ldns-zonereader-jelte.zone'), 'jelte.nlnetlabs.nl');
    const names: string[] = [];
    for await (const name of scan.names) names.push(name);
    assert.deepEqual(names, ['test.jelte.nlnetlabs.nl', 'sub.jelte.nlnetlabs.nl']);
    assert.equal(scan.stats.sawApexSoa, true);
    assert.equal(scan.stats.delegationRecords, 2);
    assert.equal(scan.stats.skippedOwners, 0);
    assert.equal(scan.stats.lines, 3882);
  });

  it('uri.arpa as transferred from ICANN (RFC 8976 example): multi-line RRSIGs in parentheses, ZONEMD', async () => {
    // 35 records (14 RRSIG, 5 NS at the apex, 5 NSEC, 4 NAPTR, 3 DNSKEY, 2 SOA, MX, ZONEMD); no delegation.
    const scan = readZoneFile(zone('ldns-zonemd-uri.arpa.zone'), 'uri.arpa');
    const names: string[] = [];
    for await (const name of scan.names) names.push(name);
    assert.deepEqual(names, []);
    assert.equal(scan.stats.sawApexSoa, true);
    assert.equal(scan.stats.records, 35);
  });
});
