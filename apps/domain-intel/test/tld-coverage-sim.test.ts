import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { simulatorEnv } from '../demo/simulator-env.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { KNOWN_GAPS, TOP_60_TLDS } from './top-tlds.ts';

interface Row {
  domain: string;
  available: boolean | null;
  status: string;
  source: string;
  server?: string;
  reason?: string;
}

/**
 * Against the simulator, where each of the 60 TLDs is played as its registry really answers (RDAP in
 * IANA's file, RDAP beyond it, or port-43 WHOIS in the registry's own format): a registered name
 * reads registered and a free one available, each naming the protocol and server that said so.
 */
for (const target of databaseTargets()) {
  describe(`the 60 TLDs customers check most give definite answers against the simulator (${target.name})`, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let key: string;

    before(async () => {
      sim = await startUpstreamSim({});
      for (const tld of TOP_60_TLDS) sim.world.register(`taken-name.${tld}`);
      t = await createTestApp({
        target,
        env: {
          ...(await simulatorEnv(sim)),
          // The politeness limits that protect real registries would only slow the simulator.
          WHOIS_HOST_RATE_PER_SECOND: '500',
          RDAP_HOST_RATE_PER_SECOND: '500',
          CHECK_DEADLINE_MS: '60000',
        },
      });
      key = await t.keyFor('starter');
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    const check = async (names: string[]): Promise<Row[]> => {
      const rows: Row[] = [];
      for (let start = 0; start < names.length; start += 30) {
        const batch = names.slice(start, start + 30).join(',');
        const response = await t.app.inject({ url: `/v1/check?domains=${batch}`, headers: bearer(key) });
        assert.equal(response.statusCode, 200, response.body);
        rows.push(...response.json().data);
      }
      return rows;
    };

    it('a registered name of each is registered, a free one available (but the known gaps), with its evidence', async () => {
      const rows = await check(TOP_60_TLDS.flatMap((tld) => [`taken-name.${tld}`, `nobody-holds-this.${tld}`]));
      const wrong = rows.filter((row) => {
        const tld = row.domain.split('.').at(-1) as string;
        if (row.domain.startsWith('nobody-holds-this.') && tld in KNOWN_GAPS) {
          // A server whose "no such domain" we hold no text of: never available, and it says why.
          return !(row.available === null && row.reason === 'no_pattern_table');
        }
        const expected = !row.domain.startsWith('taken-name.');
        return row.available !== expected || !['rdap', 'whois'].includes(row.source) || !row.server;
      });
      assert.deepEqual(
        wrong.map((row) => `${row.domain}: ${row.status} via ${row.source} (${row.reason ?? ''})`),
        [],
      );
      const whoisAnswered = rows.filter((row) => row.source === 'whois').map((row) => row.domain.split('.').at(-1));
      // WHOIS only where the registry publishes no RDAP (IANA's file and the extra table lack it).
      assert.deepEqual([...new Set(whoisAnswered)].sort(), [
        'at',
        'be',
        'cn',
        'es',
        'eu',
        'gg',
        'it',
        'jp',
        'nz',
        'ru',
        'se',
        'so',
      ]);
    });

    it("suggestions and watches under WHOIS-only TLDs are confirmed by the registry's WHOIS, and say so", async () => {
      const suggest = await t.app.inject({ url: '/v1/suggest?keyword=kaffee&tld=jp,se', headers: bearer(key) });
      assert.equal(suggest.statusCode, 200, suggest.body);
      const suggestions: { domain: string; source: string; server?: string }[] = suggest.json().data;
      assert.ok(suggestions.length > 0, 'free .jp and .se names are confirmed, not dropped');
      for (const suggestion of suggestions) {
        assert.equal(suggestion.source, 'whois', suggestion.domain);
        assert.match(suggestion.server ?? '', /^127\.0\.0\.1:\d+$/);
      }
      const watch = await t.app.inject({
        method: 'POST',
        url: '/account/watchlist',
        headers: bearer(key),
        payload: { domain: 'taken-name.se' },
      });
      assert.equal(watch.statusCode, 201, watch.body);
      const watched = watch.json().data;
      assert.equal(watched.status, 'registered');
      assert.equal(watched.evidence.source, 'whois');
    });

    it('GET /v1/whois reads a WHOIS-only registry into the record shape, and says where it came from', async () => {
      const response = await t.app.inject({ url: '/v1/whois/taken-name.jp?raw=1', headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      const record = response.json().data;
      assert.equal(record.source, 'whois');
      assert.match(record.server, /^127\.0\.0\.1:\d+$/);
      assert.equal(record.domain, 'taken-name.jp');
      assert.equal(typeof record.raw.registry.whois, 'string');
      const free = await t.app.inject({ url: '/v1/whois/nobody-holds-this.jp', headers: bearer(key) });
      assert.equal(free.statusCode, 404);
      assert.equal(free.json().error.code, 'domain_not_registered');
    });
  });
}
