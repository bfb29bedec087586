import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { databaseTargets, redisTarget, testTimeout } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { AvailabilityService } from '../src/availability/availability-service.ts';
import { createReservedNames, ReservedNames } from '../src/availability/reserved-names.ts';
import type { ZonePresence } from '../src/availability/zone-presence.ts';
import { MemoryCache } from '../src/cache/cache.ts';
import { parseDomain } from '../src/domain/normalize.ts';
import { bearer, createTestApp } from './helpers.ts';
import { type EngineUnderTest, simRdapEnv, startEngine } from './rdap-helpers.ts';

/** The zone index as availability sees it: a fixed set of delegated names, null for TLDs without a snapshot. */
class FixedZone implements ZonePresence {
  constructor(
    readonly names: Set<string>,
    readonly tlds: Set<string>,
  ) {}
  async isInZone(domain: string) {
    const tld = domain.slice(domain.indexOf('.') + 1);
    return this.tlds.has(tld) ? this.names.has(domain) : null;
  }
}

describe('availability service', () => {
  let t: EngineUnderTest;
  let clock: ManualClock;
  before(async () => {
    t = await startEngine({ RDAP_BREAKER_MIN_REQUESTS: '1000' });
    t.sim.world.register('taken.com');
    t.sim.world.register('held.com', { inZone: false, status: ['server hold'] });
  });
  after(() => t.close());
  beforeEach(() => {
    t.sim.rdap.clearFaults();
    t.sim.rdap.resetCounts();
    clock = new ManualClock('2026-03-10T12:00:00Z');
  });

  const service = (zone?: ZonePresence, reserved: Record<string, string[]> = {}) =>
    new AvailabilityService(
      {
        rdap: t.engine,
        cache: new MemoryCache({ maxEntries: 1000 }),
        reserved: operatorList(reserved),
        clock,
        zonePresence: zone,
      },
      // These tests are about what the answers mean; the deadline test passes its own.
      {
        deadlineMs: testTimeout(5_000),
        ttlMs: { registered: 60_000, reserved: 60_000, available: 10_000, unknown: 5_000 },
      },
    );

  it('a name in the zone snapshot is registered without asking RDAP; absent from it, RDAP decides', async () => {
    const availability = service(new FixedZone(new Set(['in-zone.com']), new Set(['com'])));
    const rows = await availability.check(['in-zone.com', 'held.com', 'free.com']);
    assert.deepEqual(
      rows.map((row) => [row.domain, row.status, row.source]),
      [
        ['in-zone.com', 'registered', 'zone'],
        ['held.com', 'registered', 'rdap'],
        ['free.com', 'available', 'rdap'],
      ],
    );
    assert.deepEqual(rows[1]?.registry_status, ['server hold']);
    assert.equal(t.sim.rdap.requestCount('verisign'), 2);
  });

  it('caches per outcome with its own TTL, keeping the original check time', async () => {
    const availability = service();
    await availability.check(['taken.com', 'free.com']);
    clock.advance(30_000);
    const rows = await availability.check(['taken.com', 'free.com']);
    assert.deepEqual(
      rows.map((row) => [row.status, row.source, row.cached, row.checked_at]),
      [
        ['registered', 'rdap', true, '2026-03-10T12:00:00.000Z'],
        ['available', 'rdap', true, '2026-03-10T12:00:00.000Z'],
      ],
    );
    assert.equal(t.sim.rdap.requestCount('verisign'), 2, 'the second call asked nobody');
  });

  it('caches unknown answers briefly, but never a deadline the call itself imposed', async () => {
    t.sim.rdap.setFaults('verisign', { errorStatus: 503 });
    const availability = service();
    await availability.check(['flaky.com']);
    assert.equal((await availability.check(['flaky.com']))[0]?.cached, true);
    t.sim.rdap.setFaults('verisign', { errorStatus: null, latencyMs: 500 });
    const [late] = await availability.check(['slow.com'], { deadline: Date.now() + 50 });
    assert.deepEqual([late?.status, late?.reason], ['unknown', 'deadline_exceeded']);
    t.sim.rdap.clearFaults();
    const [fresh] = await availability.check(['slow.com']);
    assert.deepEqual([fresh?.source, fresh?.cached], ['rdap', undefined]);
  });

  it('reserved lists take labels, names and IDN; a bad entry is a configuration error', async () => {
    const reserved = operatorList({ com: ['premium', 'Bücher.com'], 'co.uk': ['royal'] });
    const listOf = (name: string) => {
      const parsed = parseDomain(name);
      return parsed.ok ? reserved.listOf(parsed.domain) : null;
    };
    assert.match(listOf('premium.com') ?? '', /this service's reserved list/);
    assert.notEqual(listOf('xn--bcher-kva.com'), null);
    assert.notEqual(listOf('royal.co.uk'), null);
    assert.equal(listOf('premium.net'), null);
    assert.throws(() => operatorList({ com: ['bad_label'] }), /CHECK_RESERVED_NAMES/);
    // The registry answers a reserved name like a free one (the simulator's Verisign, as the real one, says 404).
    const [row, held] = await service(undefined, { com: ['premium', 'taken'] }).check(['premium.com', 'taken.com']);
    assert.deepEqual(
      [row?.status, row?.available, row?.source, row?.reason],
      ['reserved', false, 'reserved', 'reserved'],
    );
    // A reserved label the registry holds a record of (as registries hold nic.<tld>) is registered, with its evidence.
    assert.deepEqual([held?.status, held?.available, held?.source], ['registered', false, 'rdap']);
  });

  it("ICANN's Specification 5 labels are reserved under gTLDs only, and say which section", () => {
    const reserved = createReservedNames({ CHECK_RESERVED_NAMES: {} });
    const listOf = (name: string) => {
      const parsed = parseDomain(name);
      return parsed.ok ? reserved.listOf(parsed.domain) : null;
    };
    // The base Registry Agreement of 2013, Specification 5: §1 "example", §3.1 nic, whois, www, rdds.
    assert.match(listOf('example.app') ?? '', /Specification 5, section 1/);
    for (const label of ['nic', 'whois', 'www', 'rdds']) {
      assert.match(listOf(`${label}.shop`) ?? '', /Specification 5, section 3\.1/, `${label}.shop`);
    }
    // A ccTLD is not bound by the agreement: nic.io is the registry's own site, not a Spec 5 reservation.
    assert.equal(listOf('nic.io'), null);
    assert.equal(listOf('example.de'), null);
    assert.equal(listOf('examples.app'), null);
  });

  it('an RDAP engine that throws gives unknown, not a failed call', async () => {
    const broken = new AvailabilityService(
      {
        rdap: {
          lookupDomain: async () => {
            throw new Error('boom');
          },
        },
        cache: new MemoryCache({ maxEntries: 10 }),
        reserved: operatorList({}),
        clock,
      },
      { deadlineMs: testTimeout(1_000), ttlMs: { registered: 1, reserved: 1, available: 1, unknown: 1 } },
    );
    const [row] = await broken.check(['a.com']);
    assert.deepEqual([row?.status, row?.available, row?.reason], ['unknown', null, 'upstream_error']);
  });
});

const redis = redisTarget();
const [sqlite] = databaseTargets();
describe('availability cache on Redis', { skip: redis.skip }, () => {
  let sim: UpstreamSim;
  before(async () => {
    sim = await startUpstreamSim();
    sim.world.register('shared.org');
  });
  after(() => sim.close());

  it('a repeated call is answered from the Redis cache', async () => {
    const first = await createTestApp({ target: sqlite!, redis: true, env: simRdapEnv(sim) });
    try {
      const key = await first.keyFor('starter');
      const query = { url: '/v1/check?domains=shared.org,nobody.org', headers: bearer(key) };
      const fresh = (await first.app.inject(query)).json().data;
      assert.deepEqual(
        fresh.map((row: { source: string }) => row.source),
        ['rdap', 'rdap'],
      );
      const cached = (await first.app.inject(query)).json().data;
      assert.deepEqual(
        cached.map((row: { source: string; status: string; cached?: boolean }) => [row.status, row.source, row.cached]),
        [
          ['registered', 'rdap', true],
          ['available', 'rdap', true],
        ],
      );
    } finally {
      await first.close();
    }
  });
});

/** Only the operator's list: the tests of the lookup path stay free of the built-in gTLD rules. */
function operatorList(operator: Record<string, string[]>): ReservedNames {
  return new ReservedNames({ operator, gtldGroups: [], gtlds: new Set(), registryLists: {} });
}
