import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SIM_REGISTRIES, SIM_TLD_ROUTING, SIM_TLDS, SIM_WHOIS_REGISTRIES, type SimTldRoute } from '../src/index.ts';

const APP = new URL('../../../apps/domain-intel/', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, APP), 'utf8'));

/** The 60 TLDs customers check most (issue 30; apps/domain-intel/test/tld-coverage.test.ts holds the same list). */
const MOST_CHECKED = `com net org io co ai app dev me info biz xyz online site store tech shop club live pro
us uk de ca au fr nl eu ch es it in br jp ru cn se no dk fi
pl be at nz tv cc gg ly to sh ac so agency studio design cloud space world top life`.split(/\s+/);

const ianaListed = new Set<string>(
  (readJson('test/fixtures/real/iana/dns.json').services as [string[], string[]][]).flatMap(([tlds]) => tlds),
);
const extraServers = readJson('src/tlds/data/rdap-extra-servers.json').entries as Record<string, unknown>;
const rootZone = new Map<string, string | null>(
  (readJson('src/tlds/data/root-zone.json').tlds as { tld: string; whois: string | null }[]).map((entry) => [
    entry.tld,
    entry.whois,
  ]),
);
const route = (tld: string): SimTldRoute => (SIM_TLD_ROUTING as Record<string, SimTldRoute>)[tld] ?? {};

describe('upstream-sim TLD routing', () => {
  it('serves each of the 60 most checked TLDs by an RDAP registry or a WHOIS server', () => {
    for (const tld of MOST_CHECKED) {
      const { rdap, whois } = route(tld);
      assert.ok(rdap !== undefined || whois !== undefined, tld);
      if (rdap !== undefined) assert.ok(Object.hasOwn(SIM_REGISTRIES, rdap), `${tld}: RDAP registry ${rdap}`);
      if (whois !== undefined) assert.ok(Object.hasOwn(SIM_WHOIS_REGISTRIES, whois), `${tld}: WHOIS server ${whois}`);
    }
  });

  it("lists in its bootstrap file exactly the TLDs IANA's file lists", () => {
    for (const tld of SIM_TLDS) {
      assert.equal(route(tld).listed === true, ianaListed.has(tld), tld);
    }
  });

  it("serves unlisted RDAP exactly for the TLDs of the service's table of servers IANA's file lacks", () => {
    for (const tld of SIM_TLDS) {
      const { rdap, listed } = route(tld);
      assert.equal(rdap !== undefined && listed === false, Object.hasOwn(extraServers, tld), tld);
    }
  });

  it("plays, for a TLD with no RDAP, the WHOIS server IANA's root-zone database names", () => {
    for (const tld of SIM_TLDS) {
      const { rdap, whois } = route(tld);
      if (whois !== undefined) {
        const host = SIM_WHOIS_REGISTRIES[whois as keyof typeof SIM_WHOIS_REGISTRIES].host;
        assert.equal(host, rootZone.get(tld), tld);
      }
      if (rdap === undefined) assert.ok(whois !== undefined && rootZone.get(tld), tld);
    }
  });
});
