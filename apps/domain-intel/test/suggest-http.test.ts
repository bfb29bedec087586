import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeout, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import type { AppContext } from '../src/context.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';
import { snapshotOrder } from './zone-index-helpers.ts';

const TODAY = '2026-03-10';

/** Publishes a zone snapshot the way the daily import does, then lets the index catch up. */
async function publishZone(ctx: AppContext, tld: string, names: string[]): Promise<void> {
  async function* batches() {
    yield snapshotOrder(names);
  }
  const staged = await ctx.snapshots.stage(tld, TODAY, batches());
  await staged.commit();
  await ctx.zoneIndex.refresh();
}

interface SuggestBody {
  data: Array<{
    domain: string;
    unicode_domain: string;
    tld: string;
    available: boolean;
    source: string;
    score: number;
  }>;
  meta: { request_id: string; candidates: number; screened: number; in_zone: number; deadline_reached: boolean };
}

for (const target of databaseTargets()) {
  describe(`GET /v1/suggest on the simulator (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let key: string;
    const suggest = async (query: string) => {
      const response = await t.app.inject({ url: `/v1/suggest?${query}`, headers: bearer(key) });
      return { response, body: response.json() as SuggestBody };
    };

    before(async () => {
      sim = await startUpstreamSim({ world: undefined });
      // In the zone: screened out without asking RDAP.
      for (const name of ['coffee.com', 'coffee.net', 'getcoffee.com', 'coffees.org', 'xn--caf-dma.com']) {
        sim.world.register(name);
      }
      // Registered but not in the zone (redemption): only RDAP can tell.
      for (const name of ['coffee.org', 'coffeehq.com', 'xn--caf-dma.net']) {
        sim.world.register(name, { inZone: false, status: ['redemption period'] });
      }
      t = await createTestApp({
        target,
        env: simRdapEnv(sim, {
          RDAP_HOST_RATE_PER_SECOND: '10000',
          RDAP_HOST_CONCURRENCY: '32',
          SUGGEST_POPULAR_TLDS: 'io',
          // At most the configuration's ceiling (30 s), which no loaded machine needs for these names.
          SUGGEST_DEADLINE_MS: String(Math.min(30_000, testTimeout(5_000))),
        }),
      });
      for (const tld of ['com', 'net', 'org']) {
        await publishZone(
          t.app.ctx,
          tld,
          [...sim.world.inTld(tld)].filter((d) => d.inZone).map((d) => d.name),
        );
      }
      key = await t.keyFor('free');
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    it('returns up to 20 confirmed-available names, best first, never one registered in the zone or by RDAP', async () => {
      const { response, body } = await suggest('keyword=coffee');
      assert.equal(response.statusCode, 200, response.body);
      assert.ok(body.data.length > 0 && body.data.length <= 20);
      for (const suggestion of body.data) {
        assert.equal(suggestion.available, true);
        assert.equal(sim.world.get(suggestion.domain), undefined, `${suggestion.domain} is registered`);
        assert.ok(!suggestion.domain.endsWith('.io'), 'no RDAP server for .io in the simulator: never confirmed');
      }
      assert.equal(body.data[0]!.domain, 'coffee.info', 'the exact keyword in the first free tracked TLD');
      assert.ok(body.meta.in_zone >= 4, 'zone names were screened out');
      assert.ok(body.meta.screened >= body.meta.in_zone);
      assert.equal(body.meta.deadline_reached, false);
      assert.deepEqual(
        body.data.map((s) => s.score),
        body.data.map((s) => s.score).sort((a, b) => b - a),
      );
    });

    it('multi-word and IDN keywords', async () => {
      const multi = await suggest('keyword=Coffee%20Shop&tld=com,net');
      assert.equal(multi.response.statusCode, 200, multi.response.body);
      assert.equal(multi.body.data[0]!.domain, 'coffeeshop.com');
      const idn = await suggest(`keyword=${encodeURIComponent('Café')}&tld=com,net,org`);
      assert.equal(idn.response.statusCode, 200, idn.response.body);
      const domains = idn.body.data.map((s) => s.domain);
      assert.equal(domains[0], 'xn--caf-dma.org');
      assert.equal(idn.body.data[0]!.unicode_domain, 'café.org');
      assert.ok(!domains.includes('xn--caf-dma.com') && !domains.includes('xn--caf-dma.net'));
    });

    it('an upstream fault shrinks the list; it never fills it with unconfirmed names', async () => {
      sim.rdap.setFaults('verisign', { errorStatus: 503 });
      sim.rdap.setFaults('pir', { hang: true });
      try {
        const { response, body } = await suggest('keyword=latte&tld=com,net,org,info');
        assert.equal(response.statusCode, 200, response.body);
        assert.ok(body.data.length > 0, 'info still answers');
        for (const suggestion of body.data) assert.equal(suggestion.tld, 'info', suggestion.domain);
      } finally {
        sim.rdap.clearFaults();
      }
    });

    it('counts one call against the quota on every plan', async () => {
      const expected = { free: '99', starter: '999', enterprise: 'unlimited' } as const;
      for (const [plan, remaining] of Object.entries(expected) as Array<[keyof typeof expected, string]>) {
        const own = await t.keyFor(plan);
        const response = await t.app.inject({ url: '/v1/suggest?keyword=tea&tld=info', headers: bearer(own) });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['x-ratelimit-remaining'], remaining, plan);
      }
    });

    it('rejects bad input with 400 and a code', async () => {
      const cases: Array<[string, string]> = [
        ['', 'keyword_required'],
        ['keyword=%20%20', 'keyword_required'],
        [`keyword=${'a'.repeat(101)}`, 'keyword_too_long'],
        ['keyword=%E2%98%95%21', 'keyword_unusable'],
        ['keyword=coffee&tld=com,nosuchtld', 'unknown_tld'],
      ];
      for (const [query, code] of cases) {
        const { response } = await suggest(query);
        assert.equal(response.statusCode, 400, query);
        assert.equal(response.json().error.code, code, query);
        assert.ok(response.json().error.message.length > 0);
      }
      const noKey = await t.app.inject('/v1/suggest?keyword=coffee');
      assert.equal(noKey.statusCode, 401);
    });
  });
}

describe('GET /v1/suggest when RDAP is slower than the time budget', () => {
  it('answers in time with only what was confirmed (nothing) and says the deadline cut it short', async () => {
    const sim = await startUpstreamSim();
    for (const server of ['verisign', 'pir', 'identity-digital', 'centralnic', 'zdns'] as const) {
      // Slower than the deadline below by the same factor, however loaded the machine.
      sim.rdap.setFaults(server, { latencyMs: testTimeout(1_500) });
    }
    const [sqlite] = databaseTargets();
    const t = await createTestApp({
      target: sqlite!,
      env: simRdapEnv(sim, {
        RDAP_REQUEST_TIMEOUT_MS: testTimeoutEnv(3_000),
        SUGGEST_DEADLINE_MS: testTimeoutEnv(200),
        SUGGEST_POPULAR_TLDS: '',
      }),
    });
    try {
      const response = await t.app.inject({
        url: '/v1/suggest?keyword=coffee',
        headers: bearer(await t.keyFor('free')),
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json() as SuggestBody;
      assert.deepEqual(body.data, []);
      assert.equal(body.meta.deadline_reached, true);
    } finally {
      await t.close();
      await sim.close();
    }
  });
});
