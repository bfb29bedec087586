import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

interface Row {
  domain: string;
  available: boolean | null;
  status: string;
  source: string;
  checked_at: string;
  reason?: string;
  registry_status?: string[];
}

for (const target of databaseTargets()) {
  describe(`GET /v1/check (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let starter: string;
    let free: string;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('taken.com');
      sim.world.register('dying.org', { status: ['pending delete'], inZone: false });
      sim.world.register('taken.xyz');
      t = await createTestApp({
        target,
        env: simRdapEnv(sim, {
          CHECK_RESERVED_NAMES: JSON.stringify({ com: ['premium', 'nic.com'] }),
          // Long enough for loopback answers on a loaded CI machine; the hanging-registry test waits it out once.
          CHECK_DEADLINE_MS: '5000',
          RDAP_BREAKER_MIN_REQUESTS: '1000',
          METRICS_PUBLIC: '1',
        }),
      });
      starter = await t.keyFor('starter');
      free = await t.keyFor('free');
    });
    after(async () => {
      await t.close();
      await sim.close();
    });

    const check = (query: string, key = starter) => t.app.inject({ url: `/v1/check?${query}`, headers: bearer(key) });
    const rows = async (query: string, key = starter): Promise<Row[]> => {
      const response = await check(query, key);
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data;
    };

    it('answers one name: available, registered with its status, reserved', async () => {
      const [free1] = await rows('domain=Nobody-Has-This.com.');
      assert.deepEqual(
        { ...free1, checked_at: undefined },
        { domain: 'nobody-has-this.com', available: true, status: 'available', source: 'rdap', checked_at: undefined },
      );
      assert.equal(free1!.checked_at, '2026-03-10T12:00:00.000Z');
      const [dying] = await rows('domain=dying.org');
      assert.equal(dying!.status, 'registered');
      assert.equal(dying!.available, false);
      assert.deepEqual(dying!.registry_status, ['pending delete']);
      const [reserved] = await rows('domain=premium.com');
      assert.deepEqual([reserved!.status, reserved!.available, reserved!.source], ['reserved', false, 'rules']);
      const metrics = await t.app.inject('/metrics');
      assert.match(metrics.body, /domain_intel_check_answers_total\{status="reserved",source="rules",reason=""\} 1/);
    });

    it('refuses malformed calls with a code', async () => {
      const cases: [string, number, string, string?][] = [
        ['', 400, 'missing_domain'],
        ['domain=a.com&domains=b.com', 400, 'conflicting_parameters'],
        ['domains=a.com,,b.com', 400, 'empty_domain_entry'],
        ['domains=a.com,', 400, 'empty_domain_entry'],
        [`domains=${Array.from({ length: 31 }, (_, i) => `n${i}.com`).join(',')}`, 400, 'too_many_domains'],
        ['domain=www.example.com', 400, 'subdomain_not_allowed'],
        ['domain=', 400, 'invalid_domain'],
        ['domain=10.0.0.1', 400, 'ip_address_not_allowed'],
        ['domain=a.b&domain=c.d', 400, 'invalid_request'],
        ['domains=a.com,b.com', 403, 'plan_required', free],
      ];
      for (const [query, status, code, key] of cases) {
        const response = await check(query, key);
        assert.equal(response.statusCode, status, `${query}: ${response.body}`);
        assert.equal(response.json().error.code, code, query);
      }
      const unauthenticated = await t.app.inject('/v1/check?domain=a.com');
      assert.equal(unauthenticated.statusCode, 401);
    });

    it('Free may send one name through domains=, and duplicates collapse before counting', async () => {
      const single = await rows('domains=taken.com, TAKEN.com.', free);
      assert.equal(single.length, 1);
      const thirty = Array.from({ length: 30 }, (_, i) => `n${i}.com`);
      const withDuplicates = [...thirty, ' N0.com ', 'n1.com'].join(',');
      assert.equal((await rows(`domains=${encodeURIComponent(withDuplicates)}`)).length, 30);
    });

    it('bulk: mixed valid, invalid, reserved, cached and failing names, in order, one call of quota', async () => {
      await rows('domain=taken.xyz');
      sim.rdap.setFaults('pir', { errorStatus: 503 });
      try {
        const before = await check('domain=taken.com');
        const remainingBefore = Number(before.headers['x-ratelimit-remaining']);
        const response = await check(
          `domains=${encodeURIComponent('taken.com,bad_name.com,taken.xyz,not-cached.org,münchen.de,nic.com,fresh-one.net,www.x.com')}`,
        );
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(Number(response.headers['x-ratelimit-remaining']), remainingBefore - 1);
        const data: Row[] = response.json().data;
        assert.deepEqual(
          data.map((row) => [row.domain, row.status, row.source, row.available, row.reason ?? null]),
          [
            ['taken.com', 'registered', 'cache', false, null],
            ['bad_name.com', 'invalid', 'rules', null, 'invalid_domain'],
            ['taken.xyz', 'registered', 'cache', false, null],
            ['not-cached.org', 'unknown', 'rdap', null, 'upstream_error'],
            ['xn--mnchen-3ya.de', 'unknown', 'rdap', null, 'no_rdap_server'],
            ['nic.com', 'reserved', 'rules', false, null],
            ['fresh-one.net', 'available', 'rdap', true, null],
            ['www.x.com', 'invalid', 'rules', null, 'subdomain_not_allowed'],
          ],
        );
      } finally {
        sim.rdap.clearFaults();
      }
    });

    it('never says available when the registry fails, and the answer has a stable shape', async () => {
      const faults = [{ errorStatus: 500 }, { malformedJson: true }, { oversizeBytes: 2_000_000 }, { hang: true }];
      let n = 0;
      for (const fault of faults) {
        sim.rdap.setFaults('centralnic', fault);
        try {
          const [row] = await rows(`domain=fault-${n++}.xyz`);
          assert.equal(row!.available, null, JSON.stringify(fault));
          assert.equal(row!.status, 'unknown');
          assert.deepEqual(Object.keys(row!).sort(), [
            'available',
            'checked_at',
            'domain',
            'message',
            'reason',
            'source',
            'status',
          ]);
        } finally {
          sim.rdap.clearFaults();
        }
      }
    });

    it('a bulk call answers by its deadline: a hanging registry gives unknown rows, the others answer', async () => {
      sim.rdap.setFaults('verisign', { hang: true });
      try {
        const data = await rows('domains=hang-a.com,hang-b.net,taken.xyz,free-one.xyz');
        assert.deepEqual(
          data.map((row) => [row.domain, row.status]),
          [
            ['hang-a.com', 'unknown'],
            ['hang-b.net', 'unknown'],
            ['taken.xyz', 'registered'],
            ['free-one.xyz', 'available'],
          ],
        );
        assert.ok(['timeout', 'deadline_exceeded'].includes(data[0]!.reason!));
      } finally {
        sim.rdap.clearFaults();
      }
    });
  });
}
