import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

for (const target of databaseTargets()) {
  describe(`GET /v1/whois/{name} (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    let key: string;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('example.com', {
        registrar: { name: 'MarkMonitor Inc.', ianaId: '292', url: 'https://www.markmonitor.com' },
        createdAt: Date.parse('1995-08-14T04:00:00Z'),
        expiresAt: Date.parse('2027-08-13T04:00:00Z'),
        updatedAt: Date.parse('2024-08-14T07:01:34Z'),
      });
      sim.world.register('xn--mnchen-3ya.org');
      t = await createTestApp({
        target,
        // These cases change the registry between calls: the WHOIS cache is off for them (its own case below).
        env: simRdapEnv(sim, {
          RDAP_BREAKER_MIN_REQUESTS: '1000',
          WHOIS_CACHE_TTL_FOUND_S: '0',
          WHOIS_CACHE_TTL_NOT_FOUND_S: '0',
          WHOIS_CACHE_TTL_UNKNOWN_S: '0',
        }),
      });
      key = await t.keyFor('free');
    });
    after(async () => {
      await t.close();
      await sim.close();
    });

    const whois = (name: string) =>
      t.app.inject({ url: `/v1/whois/${encodeURIComponent(name)}`, headers: bearer(key) });

    it('returns the structured record of a registered name', async () => {
      const response = await whois('Example.COM');
      assert.equal(response.statusCode, 200, response.body);
      const { data, meta } = response.json();
      assert.ok(meta.request_id);
      assert.equal(data.domain, 'example.com');
      assert.equal(data.registered, true);
      assert.equal(data.registrar.name, 'MarkMonitor Inc.');
      assert.equal(data.registrar.iana_id, '292');
      assert.equal(data.created_at, '1995-08-14T04:00:00.000Z');
      assert.equal(data.expires_at, '2027-08-13T04:00:00.000Z');
      assert.equal(data.updated_at, '2024-08-14T07:01:34.000Z');
      assert.deepEqual(data.nameservers, ['ns1.example.com', 'ns2.example.com']);
      assert.deepEqual(data.status, ['client transfer prohibited']);
      assert.equal(data.registrant.organization, 'example Holdings LLC');
      assert.equal(data.rdap_sources.length, 2);
      assert.deepEqual(data.missing, []);
      // Additive fields, and the two servers' records kept apart.
      assert.equal(data.cached, false);
      assert.equal(
        data.age_days,
        Math.trunc((Date.parse('2026-03-10T12:00:00Z') - Date.parse(data.created_at)) / 864e5),
      );
      assert.equal(
        data.expires_in_days,
        Math.trunc((Date.parse(data.expires_at) - Date.parse('2026-03-10T12:00:00Z')) / 864e5),
      );
      assert.deepEqual(data.status_epp, ['clientTransferProhibited']);
      assert.equal(data.records.registry.source, data.rdap_sources[0]);
      assert.equal(data.records.registrar.source, data.rdap_sources[1]);
      assert.equal(data.raw, undefined);
      const withRaw = await t.app.inject({ url: '/v1/whois/example.com?raw=1', headers: bearer(key) });
      assert.equal(withRaw.statusCode, 200, withRaw.body);
      const { raw } = withRaw.json().data;
      assert.equal(raw.registry.objectClassName, 'domain');
      assert.equal(raw.registrar.objectClassName, 'domain');
    });

    it('takes IDN input and reports the Unicode name', async () => {
      const response = await whois('münchen.org');
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().data.domain, 'xn--mnchen-3ya.org');
      assert.equal(response.json().data.unicode_name, 'münchen.org');
    });

    it('answers each failure with its own code, never a 500', async () => {
      const notRegistered = await whois('nobody-has-this.com');
      assert.equal(notRegistered.statusCode, 404);
      assert.equal(notRegistered.json().error.code, 'domain_not_registered');
      // .gr has neither an RDAP server nor a WHOIS server at IANA.
      const noRdap = await whois('example.gr');
      assert.equal(noRdap.statusCode, 422);
      assert.equal(noRdap.json().error.code, 'no_registry_service');
      const invalid = await whois('www.example.com');
      assert.equal(invalid.statusCode, 400);
      assert.equal(invalid.json().error.code, 'subdomain_not_allowed');
      const ip = await whois('127.0.0.1');
      assert.equal(ip.json().error.code, 'ip_address_not_allowed');
      const unauthenticated = await t.app.inject('/v1/whois/example.com');
      assert.equal(unauthenticated.statusCode, 401);
    });

    it('an upstream that is down is a 503 upstream_unavailable, given back to the quota', async () => {
      const before = Number((await whois('example.com')).headers['x-ratelimit-remaining']);
      for (const fault of [
        { errorStatus: 503 },
        { malformedJson: true },
        { rateLimitPerSecond: 0, retryAfterSeconds: 1 },
      ]) {
        sim.rdap.setFaults('verisign', fault);
        try {
          const response = await whois('example.com');
          assert.equal(response.statusCode, 503, JSON.stringify(fault));
          const { error } = response.json();
          assert.equal(error.code, 'upstream_unavailable');
          assert.ok(['upstream_error', 'malformed_response', 'rate_limited'].includes(error.details.reason));
        } finally {
          sim.rdap.clearFaults();
        }
      }
      const quota = await t.app.inject({ url: '/v1/quota', headers: bearer(key) });
      assert.equal(quota.json().data.remaining, before, 'failed calls were refunded');
    });

    it('a crafted related link to an internal address is not followed; the registry data still comes back', async () => {
      sim.rdap.setRelatedLink('xn--mnchen-3ya.org', 'http://169.254.169.254/latest/meta-data/iam/');
      try {
        sim.rdap.resetCounts();
        const response = await whois('münchen.org');
        assert.equal(response.statusCode, 200, response.body);
        const { data } = response.json();
        assert.deepEqual(data.missing, ['registrar_record']);
        assert.equal(data.registrant.redacted, true, 'the registry record has the registrant redacted');
        assert.equal(data.registrant.email, null);
        assert.equal(data.registrar.iana_id, '9999');
        assert.equal(sim.rdap.requestCount('registrar'), 0);
      } finally {
        sim.rdap.setRelatedLink('xn--mnchen-3ya.org', null);
      }
    });
  });

  describe(`GET /v1/whois/{name} caching (${target.name})`, { skip: target.skip }, () => {
    it('keeps each outcome for its own lifetime and says when an answer is cached', async () => {
      const sim = await startUpstreamSim();
      sim.world.register('example.com');
      const t = await createTestApp({
        target,
        env: simRdapEnv(sim, { WHOIS_CACHE_TTL_FOUND_S: '3600', WHOIS_CACHE_TTL_NOT_FOUND_S: '60' }),
      });
      try {
        const key = await t.keyFor('free');
        const whois = (name: string) => t.app.inject({ url: `/v1/whois/${name}`, headers: bearer(key) });
        const first = (await whois('example.com')).json().data;
        assert.equal(first.cached, false);
        sim.rdap.resetCounts();
        t.clock.advance(10 * 86_400_000);
        const second = (await whois('example.com')).json().data;
        assert.equal(second.cached, true);
        assert.equal(second.fetched_at, first.fetched_at);
        // Ages are as of the response, not of the fetch.
        assert.equal(second.age_days, first.age_days + 10);
        assert.equal(sim.rdap.requestCount('verisign'), 0);
        assert.equal((await whois('nobody-has-this.com')).statusCode, 404);
        assert.equal((await whois('nobody-has-this.com')).statusCode, 404);
        assert.equal(sim.rdap.requestCount('verisign'), 1);
      } finally {
        await t.close();
        await sim.close();
      }
    });
  });
}
