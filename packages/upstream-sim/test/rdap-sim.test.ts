import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startUpstreamSim, type UpstreamSim } from '../src/index.ts';

describe('upstream-sim RDAP', () => {
  let sim: UpstreamSim;
  before(async () => {
    sim = await startUpstreamSim();
    sim.world.register('example.com');
    sim.world.register('example.org', { status: ['redemption period'] });
    sim.world.register('blocked.com');
    sim.world.reserved.set('com', new Set(['blocked.com']));
  });
  after(() => sim.close());

  const get = (path: string, init?: RequestInit) => fetch(`${sim.url}${path}`, init);

  it('publishes an RFC 9224 bootstrap file pointing at its registry servers', async () => {
    const response = await get('/rdap/bootstrap/dns.json');
    const file = await response.json();
    assert.equal(file.version, '1.0');
    const com = file.services.find(([tlds]: [string[]]) => tlds.includes('com'));
    const pir = file.services.find(([tlds]: [string[]]) => tlds.includes('org'));
    assert.match(com[1][0], /^http:\/\/127\.0\.0\.1:\d+\/rdap\/verisign\/$/);
    assert.notEqual(new URL(com[1][0]).port, new URL(pir[1][0]).port, 'each registry is a host of its own');
    const viaOwnPort = await fetch(`${com[1][0]}domain/example.com`);
    assert.equal(viaOwnPort.status, 200);
  });

  it('answers registered names with a domain object and a related registrar link', async () => {
    const response = await get('/rdap/verisign/domain/example.com');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/rdap\+json/);
    const body = await response.json();
    assert.equal(body.objectClassName, 'domain');
    assert.equal(body.ldhName, 'EXAMPLE.COM');
    const related = body.links.find((link: { rel: string }) => link.rel === 'related');
    assert.equal(related.type, 'application/rdap+json');
    const registrar = await (await fetch(related.href)).json();
    const registrant = registrar.entities.find((e: { roles: string[] }) => e.roles.includes('registrant'));
    assert.ok(registrant.vcardArray[1].some(([name]: [string]) => name === 'email'));
  });

  it('carries the world status and answers 404 for unknown, reserved and wrong-registry names', async () => {
    const org = await (await get('/rdap/pir/domain/example.org')).json();
    assert.deepEqual(org.status, ['redemption period']);
    assert.ok(Array.isArray(org.redacted));
    for (const path of [
      '/rdap/verisign/domain/nothing.com',
      '/rdap/verisign/domain/blocked.com',
      '/rdap/pir/domain/example.com',
    ]) {
      const response = await get(path);
      assert.equal(response.status, 404, path);
      assert.equal((await response.json()).errorCode, 404);
    }
  });

  it('plays faults per server, settable from tests and over HTTP', async () => {
    sim.rdap.setFaults('verisign', { errorStatus: 503 });
    assert.equal((await get('/rdap/verisign/domain/example.com')).status, 503);
    assert.equal((await get('/rdap/pir/domain/example.org')).status, 200, 'other servers unaffected');
    sim.rdap.setFaults('verisign', { errorStatus: null, malformedJson: true });
    const malformed = await get('/rdap/verisign/domain/example.com');
    await assert.rejects(malformed.json());
    sim.rdap.clearFaults();

    const put = await get('/rdap/admin/faults/pir', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rateLimitPerSecond: 1, retryAfterSeconds: 7 }),
    });
    assert.equal(put.status, 200);
    await get('/rdap/pir/domain/example.org');
    const limited = await get('/rdap/pir/domain/example.org');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.equal((await get('/rdap/admin/faults', { method: 'DELETE' })).status, 200);
    assert.equal(sim.rdap.faults.get('pir').rateLimitPerSecond, null);
    assert.equal(
      (
        await get('/rdap/admin/faults/nope', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
      404,
    );
  });

  it('serves an oversize body and hangs without blocking close', async () => {
    sim.rdap.setFaults('centralnic', { oversizeBytes: 100_000 });
    sim.world.register('big.xyz');
    const big = await get('/rdap/centralnic/domain/big.xyz');
    assert.ok((await big.text()).length > 100_000);
    sim.rdap.setFaults('centralnic', { oversizeBytes: null, hang: true });
    const controller = new AbortController();
    const hung = get('/rdap/centralnic/domain/big.xyz', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(hung);
    sim.rdap.clearFaults();
  });

  it("serves the TLDs IANA's file lacks from servers its bootstrap file leaves out (extraServers)", async () => {
    sim.world.register('startup.io');
    sim.world.register('brand.co');
    sim.world.register('firma.de');
    sim.world.register('launch.app');
    const file = await (await get('/rdap/bootstrap/dns.json')).json();
    const listed = new Set((file.services as [string[], string[]][]).flatMap(([tlds]) => tlds));
    for (const tld of ['ai', 'app', 'dev', 'uk', 'fr', 'au']) assert.ok(listed.has(tld), tld);
    const extra = await sim.rdap.extraServers();
    assert.deepEqual(Object.keys(extra).sort(), ['ac', 'ch', 'co', 'de', 'dk', 'io', 'me', 'sh', 'us']);
    for (const tld of Object.keys(extra)) assert.ok(!listed.has(tld), `${tld} is not in the bootstrap file`);
    assert.match(extra.io?.[0] ?? '', /^http:\/\/127\.0\.0\.1:\d+\/rdap\/identity-digital\/$/);
    assert.notEqual(
      new URL(extra.de?.[0] ?? '').port,
      new URL(extra.co?.[0] ?? '').port,
      'DENIC and CentralNic are hosts of their own',
    );
    for (const [name, tld] of [
      ['startup.io', 'io'],
      ['brand.co', 'co'],
      ['firma.de', 'de'],
    ] as const) {
      const found = await fetch(`${extra[tld]?.[0]}domain/${name}`);
      assert.equal(found.status, 200, name);
      assert.equal((await found.json()).ldhName, name);
      assert.equal((await fetch(`${extra[tld]?.[0]}domain/free.${tld}`)).status, 404, `free.${tld}`);
    }
    const google = file.services.find(([tlds]: [string[]]) => tlds.includes('app'));
    assert.match(google[1][0], /\/rdap\/google\/$/);
    assert.equal((await fetch(`${google[1][0]}domain/launch.app`)).status, 200);
  });
});
