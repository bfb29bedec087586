import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { testTimeout, testTimeoutEnv } from '@repo/server-kit/testing';
import Fastify from 'fastify';
import { loadDomainIntelConfig } from '../src/config.ts';
import type { RdapLookup } from '../src/rdap/types.ts';
import { type EngineUnderTest, startEngine } from './rdap-helpers.ts';

const reasonOf = (lookup: RdapLookup) => (lookup.kind === 'unknown' ? lookup.reason : lookup.kind);

describe('RDAP client against the simulator', () => {
  let t: EngineUnderTest;
  before(async () => {
    // A hanging server runs until the lookup's budget ends it: a short one keeps the fault table quick.
    t = await startEngine({ RDAP_BREAKER_MIN_REQUESTS: '1000', RDAP_LOOKUP_BUDGET_MS: testTimeoutEnv(2_000) });
    t.sim.world.register('example.com', {
      registrar: { name: 'MarkMonitor Inc.', ianaId: '292', url: 'https://www.markmonitor.com' },
      nameservers: ['ns1.example.com', 'ns2.example.com'],
      createdAt: Date.parse('1997-09-15T04:00:00Z'),
    });
    t.sim.world.register('dying.org', { status: ['redemption period'], inZone: false });
    t.sim.world.register('reserved.com');
    t.sim.world.reserved.set('com', new Set(['reserved.com']));
  });
  after(() => t.close());
  beforeEach(() => {
    t.sim.rdap.clearFaults();
    t.sim.rdap.resetCounts();
  });

  it('returns the registry record merged with the registrar record', async () => {
    const lookup = await t.engine.lookupDomain('example.com', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'found');
    if (lookup.kind !== 'found') return;
    const { record } = lookup;
    assert.equal(record.domain, 'example.com');
    assert.equal(record.registered, true);
    assert.deepEqual(record.registrar, {
      name: 'MarkMonitor Inc.',
      iana_id: '292',
      url: 'https://www.markmonitor.com',
      abuse_email: 'abuse@www.markmonitor.com',
      abuse_phone: '+1.5555550100',
      handle: '292',
    });
    assert.equal(record.created_at, '1997-09-15T04:00:00.000Z');
    assert.deepEqual(record.nameservers, ['ns1.example.com', 'ns2.example.com']);
    assert.deepEqual(record.status, ['client transfer prohibited']);
    assert.equal(record.dnssec, false);
    assert.equal(record.registrant?.email, 'hostmaster@example.com');
    assert.equal(record.registrant?.country, 'US');
    assert.equal(record.registrant?.redacted, false);
    const [registryUrl, registrarUrl] = record.rdap_sources;
    assert.match(registryUrl!, /^http:\/\/127\.0\.0\.1:\d+\/rdap\/verisign\/domain\/example\.com$/);
    assert.match(registrarUrl!, /^http:\/\/127\.0\.0\.1:\d+\/rdap\/registrar\/292\/domain\/example\.com$/);
    assert.notEqual(
      new URL(registryUrl!).host,
      new URL(registrarUrl!).host,
      'registry and registrar are separate hosts',
    );
    assert.deepEqual(record.missing, []);
    assert.equal(record.fetched_at, '2026-03-10T12:00:00.000Z');
  });

  it('registryOnly asks the registry alone; statuses come through', async () => {
    const lookup = await t.engine.lookupDomain('dying.org', { traffic: 'interactive', registryOnly: true });
    assert.equal(lookup.kind, 'found');
    if (lookup.kind === 'found') assert.deepEqual(lookup.record.status, ['redemption period']);
    assert.equal(t.sim.rdap.requestCount('registrar'), 0);
  });

  it('not_found only from the registry 404 (reserved names included, as registries answer them)', async () => {
    const lookup = await t.engine.lookupDomain('never-registered.com', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'not_found');
    if (lookup.kind === 'not_found') assert.match(lookup.source, /\/rdap\/verisign\/domain\/never-registered\.com$/);
    assert.equal((await t.engine.lookupDomain('reserved.com', { traffic: 'interactive' })).kind, 'not_found');
  });

  it('a TLD without an RDAP server is unknown/no_rdap_server', async () => {
    assert.equal(reasonOf(await t.engine.lookupDomain('example.io', { traffic: 'interactive' })), 'no_rdap_server');
  });

  it('a deadline shorter than the registry answers gives deadline_exceeded', async () => {
    t.sim.rdap.setFaults('pir', { latencyMs: 2_000 });
    const lookup = await t.engine.lookupDomain('dying.org', { traffic: 'interactive', deadline: Date.now() + 100 });
    assert.equal(reasonOf(lookup), 'deadline_exceeded');
    assert.equal(
      reasonOf(await t.engine.lookupDomain('dying.org', { traffic: 'interactive', deadline: Date.now() - 1 })),
      'deadline_exceeded',
    );
  });

  it('a failing registrar hop still returns the registry data, saying what is missing', async () => {
    t.sim.rdap.setFaults('registrar', { errorStatus: 502 });
    const lookup = await t.engine.lookupDomain('example.com', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'found');
    if (lookup.kind !== 'found') return;
    assert.deepEqual(lookup.record.missing, ['registrar_record']);
    assert.equal(lookup.record.registrar?.iana_id, '292');
    assert.equal(lookup.record.registrant, null);
  });

  it('refuses crafted related links to private, metadata and non-http addresses', async () => {
    const port = new URL(t.sim.url).port;
    for (const href of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/rdap/domain/example.com',
      'https://192.168.1.1/domain/example.com',
      'http://[::ffff:10.0.0.1]/domain/example.com',
      'file:///etc/passwd',
      `http://user:secret@127.0.0.1:${port}/rdap/registrar/292/domain/example.com`,
    ]) {
      t.sim.rdap.setRelatedLink('example.com', href);
      const lookup = await t.engine.lookupDomain('example.com', { traffic: 'interactive' });
      assert.equal(lookup.kind, 'found', href);
      if (lookup.kind === 'found') assert.deepEqual(lookup.record.missing, ['registrar_record'], href);
    }
    t.sim.rdap.setRelatedLink('example.com', null);
    assert.equal(t.sim.rdap.requestCount('registrar'), 0);
  });

  it('every upstream fault is unknown with its reason, never not_found', async () => {
    const cases: [Parameters<typeof t.sim.rdap.setFaults>[1], string][] = [
      [{ errorStatus: 503 }, 'upstream_error'],
      [{ errorStatus: 500 }, 'upstream_error'],
      [{ malformedJson: true }, 'malformed_response'],
      [{ oversizeBytes: 2 * 1024 * 1024 }, 'response_too_large'],
      [{ hang: true }, 'timeout'],
      // Last: the 30 s cool-down it leaves on the server is honoured by every later request.
      [{ rateLimitPerSecond: 0, retryAfterSeconds: 30 }, 'rate_limited'],
    ];
    for (const [faults, reason] of cases) {
      t.sim.rdap.clearFaults();
      t.sim.rdap.setFaults('verisign', faults);
      const registered = await t.engine.lookupDomain('example.com', { traffic: 'interactive' });
      const free = await t.engine.lookupDomain('free-name.com', { traffic: 'interactive' });
      assert.equal(reasonOf(registered), reason, JSON.stringify(faults));
      assert.equal(reasonOf(free), reason, JSON.stringify(faults));
    }
  });
});

describe('RDAP client resilience', () => {
  it('retries a 429 after its Retry-After when that fits', async () => {
    const t = await startEngine({ RDAP_RETRY_MAX_WAIT_MS: '3000' });
    try {
      t.sim.world.register('busy.com');
      t.sim.rdap.setFaults('verisign', { rateLimitPerSecond: 1, retryAfterSeconds: 1 });
      assert.equal(
        (await t.engine.lookupDomain('busy.com', { traffic: 'interactive', registryOnly: true })).kind,
        'found',
      );
      assert.equal(
        (await t.engine.lookupDomain('busy.com', { traffic: 'interactive', registryOnly: true })).kind,
        'found',
      );
      assert.equal(t.sim.rdap.requestCount('verisign'), 3, 'the second lookup was answered 429 once, then retried');
    } finally {
      await t.close();
    }
  });

  it('an answer slower than RDAP_REQUEST_TIMEOUT_MS but inside the deadline is the answer, not a timeout', async () => {
    const t = await startEngine({ RDAP_REQUEST_TIMEOUT_MS: '100' });
    try {
      t.sim.world.register('slow.com');
      t.sim.rdap.setFaults('verisign', { latencyMs: 400 });
      const lookup = await t.engine.lookupDomain('slow.com', { traffic: 'interactive', registryOnly: true });
      assert.equal(lookup.kind, 'found');
      assert.equal(t.sim.rdap.requestCount('verisign'), 1);
    } finally {
      await t.close();
    }
  });

  it('a hanging registry opens its circuit after the configured failures; deadlines shorter than the slow figure never do', async () => {
    const breaker = { RDAP_BREAKER_MIN_REQUESTS: '2', RDAP_BREAKER_RESET_MS: '60000' };
    const patient = await startEngine({ ...breaker, RDAP_REQUEST_TIMEOUT_MS: '60000' });
    const t = await startEngine({ ...breaker, RDAP_REQUEST_TIMEOUT_MS: '100' }, patient.sim);
    try {
      t.sim.rdap.setFaults('verisign', { hang: true });
      // Our own deadline, shorter than the slow figure, ends these attempts: they say nothing about the server.
      for (let attempt = 0; attempt < 3; attempt++) {
        const deadline = Date.now() + testTimeout(300);
        const lookup = await patient.engine.lookupDomain('a.com', { traffic: 'interactive', deadline });
        assert.equal(reasonOf(lookup), 'deadline_exceeded', 'the circuit stays closed');
      }
      // Attempts the deadline ends after the slow figure are the server's timeouts, which the breaker counts.
      for (let attempt = 0; attempt < 2; attempt++) {
        const deadline = Date.now() + testTimeout(500);
        assert.equal(reasonOf(await t.engine.lookupDomain('b.com', { traffic: 'interactive', deadline })), 'timeout');
      }
      const before = t.sim.rdap.requestCount('verisign');
      assert.equal(reasonOf(await t.engine.lookupDomain('c.com', { traffic: 'interactive' })), 'circuit_open');
      assert.equal(t.sim.rdap.requestCount('verisign'), before, 'an open circuit sends nothing');
    } finally {
      await t.close();
      await patient.close();
    }
  });

  it('opens the circuit of a failing host without touching other hosts', async () => {
    const t = await startEngine({ RDAP_BREAKER_MIN_REQUESTS: '2', RDAP_BREAKER_RESET_MS: '60000' });
    try {
      t.sim.world.register('up.org');
      t.sim.rdap.setFaults('verisign', { errorStatus: 503 });
      assert.equal(reasonOf(await t.engine.lookupDomain('a.com', { traffic: 'interactive' })), 'upstream_error');
      assert.equal(reasonOf(await t.engine.lookupDomain('b.com', { traffic: 'interactive' })), 'upstream_error');
      const before = t.sim.rdap.requestCount('verisign');
      assert.equal(reasonOf(await t.engine.lookupDomain('c.com', { traffic: 'interactive' })), 'circuit_open');
      assert.equal(t.sim.rdap.requestCount('verisign'), before, 'an open circuit sends nothing');
      assert.equal(
        (await t.engine.lookupDomain('up.org', { traffic: 'interactive', registryOnly: true })).kind,
        'found',
      );
    } finally {
      await t.close();
    }
  });

  it('closes the circuit again after its reset time once the host answers', async () => {
    const t = await startEngine({ RDAP_BREAKER_MIN_REQUESTS: '1', RDAP_BREAKER_RESET_MS: '200' });
    try {
      t.sim.world.register('back.com');
      t.sim.rdap.setFaults('verisign', { errorStatus: 500 });
      assert.equal(reasonOf(await t.engine.lookupDomain('back.com', { traffic: 'interactive' })), 'upstream_error');
      assert.equal(reasonOf(await t.engine.lookupDomain('back.com', { traffic: 'interactive' })), 'circuit_open');
      t.sim.rdap.clearFaults();
      let lookup = await t.engine.lookupDomain('back.com', { traffic: 'interactive', registryOnly: true });
      for (let i = 0; i < 50 && lookup.kind !== 'found'; i++) {
        assert.equal(reasonOf(lookup), 'circuit_open');
        await sleep(50);
        lookup = await t.engine.lookupDomain('back.com', { traffic: 'interactive', registryOnly: true });
      }
      assert.equal(lookup.kind, 'found');
    } finally {
      await t.close();
    }
  });

  it('an HTML 404 page is not a registry 404: unknown, never not_found', async () => {
    const misrouted = Fastify({ logger: false });
    misrouted.get('/*', async (_request, reply) => reply.code(404).type('text/html').send('<h1>Not Found</h1>'));
    const url = await misrouted.listen({ host: '127.0.0.1', port: 0 });
    const t = await startEngine({ RDAP_BOOTSTRAP_OVERRIDES: JSON.stringify({ com: `${url}/rdap/` }) });
    try {
      assert.equal(
        reasonOf(await t.engine.lookupDomain('anything.com', { traffic: 'interactive' })),
        'malformed_response',
      );
    } finally {
      await t.close();
      await misrouted.close();
    }
  });

  it('refuses http and loopback registry servers unless insecure mode is on', async () => {
    const t = await startEngine({ RDAP_ALLOW_INSECURE: '0' });
    try {
      t.sim.world.register('example.com');
      assert.equal(reasonOf(await t.engine.lookupDomain('example.com', { traffic: 'interactive' })), 'no_rdap_server');
      assert.equal(t.sim.rdap.requestCount('verisign'), 0);
    } finally {
      await t.close();
    }
  });
});

describe('registry rates (RDAP_HOST_RATES over RDAP_HOST_RATE_PER_SECOND)', () => {
  it("names each TLD's registry host and the rate background work may use there", async () => {
    const plain = await startEngine({ RDAP_HOST_RATE_PER_SECOND: '7', RDAP_INTERACTIVE_SHARE: '0' });
    try {
      const com = await plain.engine.registryRateOf('com');
      assert.equal(com?.perSecond, 7);
      assert.deepEqual(await plain.engine.registryRateOf('net'), com, '.com and .net share one Verisign host');
      assert.equal(await plain.engine.registryRateOf('io'), null, 'no RDAP server known');
      // The interactive share (0.2 by default) is kept out of what background work may use.
      const named = await startEngine(
        { RDAP_HOST_RATE_PER_SECOND: '7', RDAP_HOST_RATES: JSON.stringify({ [com!.host]: 50 }) },
        plain.sim,
      );
      try {
        assert.deepEqual(await named.engine.registryRateOf('com'), { host: com!.host, perSecond: 40 });
        assert.equal((await named.engine.registryRateOf('org'))?.perSecond, 5, '7 × 0.8 in whole requests a second');
      } finally {
        await named.close();
      }
    } finally {
      await plain.close();
    }
  });

  it('refuses RDAP_HOST_RATES that are not a map of host names to whole rates', () => {
    assert.throws(
      () => loadDomainIntelConfig({ RDAP_HOST_RATES: '{"https://rdap.verisign.com":50}' }),
      /RDAP_HOST_RATES/,
    );
    assert.throws(() => loadDomainIntelConfig({ RDAP_HOST_RATES: '{"rdap.verisign.com":0}' }), /RDAP_HOST_RATES/);
    assert.throws(() => loadDomainIntelConfig({ RDAP_HOST_RATES: '{oops' }), /RDAP_HOST_RATES: must be valid JSON/);
    const config = loadDomainIntelConfig({ RDAP_HOST_RATES: '{"rdap.verisign.com":50,"127.0.0.1:8443":5}' });
    assert.deepEqual(config.RDAP_HOST_RATES, { 'rdap.verisign.com': 50, '127.0.0.1:8443': 5 });
  });
});
