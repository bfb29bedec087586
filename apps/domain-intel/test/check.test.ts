import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, redisTarget, testTimeoutEnv } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { PLANS } from '../src/accounts/plans.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

interface Row {
  domain: string;
  available: boolean | null;
  status: string;
  source: string;
  checked_at: string;
  server?: string;
  cached?: boolean;
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
          // The hanging-registry test waits it out once.
          CHECK_DEADLINE_MS: testTimeoutEnv(5_000),
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
        { ...free1, checked_at: undefined, server: undefined },
        {
          domain: 'nobody-has-this.com',
          available: true,
          status: 'available',
          source: 'rdap',
          checked_at: undefined,
          server: undefined,
        },
      );
      assert.match(free1!.server ?? '', /^http:\/\/127\.0\.0\.1:\d+\/rdap\/verisign\/$/, 'the registry server asked');
      assert.equal(free1!.checked_at, '2026-03-10T12:00:00.000Z');
      const [dying] = await rows('domain=dying.org');
      assert.equal(dying!.status, 'registered');
      assert.equal(dying!.available, false);
      assert.deepEqual(dying!.registry_status, ['pending delete']);
      const [reserved] = await rows('domain=premium.com');
      assert.deepEqual(
        [reserved!.status, reserved!.available, reserved!.source, reserved!.reason],
        ['reserved', false, 'reserved', 'reserved'],
      );
      const metrics = await t.app.inject('/metrics');
      assert.match(
        metrics.body,
        /domain_intel_check_answers_total\{status="reserved",source="reserved",reason="reserved"\} 1/,
      );
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
          `domains=${encodeURIComponent('taken.com,bad_name.com,taken.xyz,not-cached.org,münchen.gr,nic.com,fresh-one.net,www.x.com')}`,
        );
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(Number(response.headers['x-ratelimit-remaining']), remainingBefore - 1);
        const data: Row[] = response.json().data;
        assert.deepEqual(
          data.map((row) => [
            row.domain,
            row.status,
            row.source,
            row.cached ?? false,
            row.available,
            row.reason ?? null,
          ]),
          [
            ['taken.com', 'registered', 'rdap', true, false, null],
            ['bad_name.com', 'invalid', 'rules', false, null, 'invalid_domain'],
            ['taken.xyz', 'registered', 'rdap', true, false, null],
            ['not-cached.org', 'unknown', 'rdap', false, null, 'upstream_error'],
            // .gr has neither an RDAP server nor a WHOIS server at IANA: no registry to ask.
            ['xn--mnchen-3ya.gr', 'unknown', 'rules', false, null, 'no_source'],
            ['nic.com', 'reserved', 'reserved', false, false, 'reserved'],
            ['fresh-one.net', 'available', 'rdap', false, true, null],
            ['www.x.com', 'invalid', 'rules', false, null, 'subdomain_not_allowed'],
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
            'server',
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

const redis = redisTarget();
const [sqlite] = databaseTargets();
describe('GET /v1/check with the cache and quota in Redis', { skip: redis.skip }, () => {
  let sim: UpstreamSim;
  let t: TestApp;
  let key: string;
  /** What happened, in order: the check's cache read begun, the quota's decision made. */
  let events: string[];
  before(async () => {
    sim = await startUpstreamSim();
    sim.world.register('taken.com');
    t = await createTestApp({ target: sqlite!, redis: true, env: simRdapEnv(sim) });
    key = await t.keyFor('starter');
    // Watched, not replaced: the real check and the real quota (Redis) still do the work.
    const { availability, quota } = t.app.ctx;
    const begin = availability.begin.bind(availability);
    availability.begin = (inputs) => {
      events.push(`begin ${inputs.join(',')}`);
      return begin(inputs);
    };
    const consume = quota.consume.bind(quota);
    quota.consume = async (caller) => {
      const status = await consume(caller);
      events.push(status.allowed ? 'quota allowed' : 'quota refused');
      return status;
    };
  });
  after(async () => {
    await t.close();
    await sim.close();
  });

  const check = async (query: string) => {
    events = [];
    return t.app.inject({ url: `/v1/check?${query}`, headers: bearer(key) });
  };

  it('reads the cached verdicts while the quota unit is taken, not after it', async () => {
    const first = await check('domains=taken.com,nobody-here.com');
    assert.deepEqual(
      first.json().data.map((row: Row) => [row.domain, row.status, row.source]),
      [
        ['taken.com', 'registered', 'rdap'],
        ['nobody-here.com', 'available', 'rdap'],
      ],
    );
    assert.deepEqual(events, ['begin taken.com,nobody-here.com', 'quota allowed']);

    const again = await check('domain=Taken.COM');
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(
      again.json().data.map((row: Row) => [row.domain, row.status, row.source, row.cached]),
      [['taken.com', 'registered', 'rdap', true]],
    );
    assert.deepEqual(events, ['begin taken.com', 'quota allowed']);
  });

  it('a query it cannot check is refused as before, after its quota unit, and begins nothing', async () => {
    const conflicting = await check('domain=a.com&domains=b.com');
    assert.equal(conflicting.statusCode, 400);
    assert.equal(conflicting.json().error.code, 'conflicting_parameters');
    const repeated = await check('domain=a.com&domain=b.com');
    assert.equal(repeated.statusCode, 400);
    assert.deepEqual(events, ['quota allowed']);
  });

  it('a call over its quota answers 429 with nothing it read', async () => {
    const poor = await t.keyFor('free');
    const responses = await Promise.all(
      Array.from({ length: PLANS.free.dailyCallLimit ?? 0 }, () =>
        t.app.inject({ url: '/v1/check?domain=taken.com', headers: bearer(poor) }),
      ),
    );
    assert.deepEqual(new Set(responses.map((response) => response.statusCode)), new Set([200]));
    events = [];
    const over = await t.app.inject({ url: '/v1/check?domain=taken.com', headers: bearer(poor) });
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().error.code, 'quota_exceeded');
    assert.equal(over.json().data, undefined);
    assert.deepEqual(events, ['begin taken.com', 'quota refused']);
  });
});
