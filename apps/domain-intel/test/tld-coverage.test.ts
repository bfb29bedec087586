import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { TldInfo } from '@repo/contracts/domain-intel';
import { ManualClock } from '@repo/server-kit';
import { tempDir } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from '../src/config.ts';
import { createRegistryEngine, type RegistryEngine } from '../src/registry/engine.ts';
import { describeTlds } from '../src/registry/tld-directory.ts';
import { KNOWN_GAPS, TOP_60_TLDS } from './top-tlds.ts';

// IANA's RDAP bootstrap file as published on 2026-07-23 (test/fixtures/real/iana/SOURCES.md): the
// default configuration reads the live file, which this machine cannot reach.
const IANA_DNS_JSON = fileURLToPath(new URL('./fixtures/real/iana/dns.json', import.meta.url));

describe('every TLD customers check most has a registry to ask on the default configuration', () => {
  let engine: RegistryEngine;
  let tlds: Map<string, TldInfo>;
  const dir = tempDir('tld-coverage');

  before(async () => {
    const config = loadDomainIntelConfig({ NODE_ENV: 'test', DATA_DIR: dir.dir, RDAP_BOOTSTRAP_URL: IANA_DNS_JSON });
    engine = createRegistryEngine(config, new ManualClock('2026-11-27T12:00:00Z'), () => {});
    const described = await describeTlds({
      rdapServers: () => engine.allServers(),
      whoisServers: engine.whoisServers,
      trackedTlds: config.TRACKED_TLDS,
    });
    tlds = new Map(described.tlds.map((entry) => [entry.tld, entry]));
    assert.ok(described.rdapBootstrapLoaded);
  });
  after(async () => {
    await engine.close();
    dir.remove();
  });

  it('lists every TLD of the root zone (at least 1,400)', () => {
    assert.ok(tlds.size >= 1_400, `${tlds.size} TLDs`);
    assert.equal(TOP_60_TLDS.length, 60);
    assert.equal(new Set(TOP_60_TLDS).size, 60);
  });

  it('each of the 60 is answered (RDAP or WHOIS); all but the known gaps can confirm a free name', () => {
    const gaps: Record<string, string> = {};
    for (const tld of TOP_60_TLDS) {
      const entry = tlds.get(tld);
      if (!entry) gaps[tld] = 'not in the root zone table';
      else if (entry.answered_by === null) gaps[tld] = 'no RDAP or WHOIS server';
      else if (entry.availability !== 'full') gaps[tld] = `${entry.availability} through ${entry.answered_by}`;
    }
    assert.deepEqual(gaps, KNOWN_GAPS);
  });

  it('RDAP comes first: IANA file, then the extra table; WHOIS only where neither has the TLD', () => {
    assert.deepEqual(tlds.get('com')?.rdap?.origin, 'iana');
    assert.deepEqual(tlds.get('de')?.rdap?.origin, 'extra');
    assert.equal(tlds.get('de')?.answered_by, 'rdap');
    assert.equal(tlds.get('jp')?.answered_by, 'whois');
    assert.deepEqual(tlds.get('jp')?.whois, {
      server: 'whois.jprs.jp:43',
      authority: 'whois.jprs.jp',
      answer_patterns: true,
    });
  });

  it('the drop feed tracks the zones of TRACKED_TLDS only', () => {
    assert.equal(tlds.get('com')?.drop_feed, true);
    assert.equal(tlds.get('io')?.drop_feed, false);
  });
});
