import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { tempDir } from '@repo/server-kit/testing';
import { startUpstreamSim } from '@repo/upstream-sim';
import { loadDomainIntelConfig } from '../src/config.ts';
import { type BootstrapAnswer, RdapBootstrap } from '../src/rdap/bootstrap.ts';

const ianaShaped = (comUrl: string) =>
  JSON.stringify({
    version: '1.0',
    publication: '2026-03-09T19:00:01Z',
    description: 'RDAP bootstrap file for Domain Name System registrations',
    services: [
      [
        ['com', 'net'],
        ['http://rdap.verisign.com/com/v1/', comUrl],
      ],
      [['uk'], ['https://rdap.nominet.uk/uk']],
      [['org'], ['https://rdap.publicinterestregistry.org/rdap/']],
    ],
  });

const options = (
  source: string,
  clock: ManualClock,
  extra: Partial<ConstructorParameters<typeof RdapBootstrap>[0]> = {},
) => ({
  source,
  overrides: {},
  cacheFile: undefined,
  refreshMs: 86_400_000,
  fetchTimeoutMs: 2_000,
  clock,
  ...extra,
});

const urlsOf = (answer: BootstrapAnswer) => (answer.kind === 'servers' ? answer.baseUrls : answer.kind);

describe('RDAP bootstrap', () => {
  it('reads an IANA-shaped file: https first, longest suffix, overrides win, unknown TLDs have none', async () => {
    const dir = tempDir('bootstrap');
    const file = path.join(dir.dir, 'dns.json');
    writeFileSync(file, ianaShaped('https://rdap.verisign.com/com/v1/'));
    const bootstrap = new RdapBootstrap(
      options(file, new ManualClock(), {
        overrides: { io: 'https://rdap.identitydigital.services/rdap', org: 'https://override.example/rdap/' },
      }),
    );
    try {
      assert.deepEqual(urlsOf(await bootstrap.serversFor('com')), [
        'https://rdap.verisign.com/com/v1/',
        'http://rdap.verisign.com/com/v1/',
      ]);
      const couk = await bootstrap.serversFor('co.uk');
      assert.deepEqual(couk, { kind: 'servers', tld: 'uk', baseUrls: ['https://rdap.nominet.uk/uk/'], origin: 'iana' });
      assert.deepEqual(urlsOf(await bootstrap.serversFor('io')), ['https://rdap.identitydigital.services/rdap/']);
      assert.deepEqual(urlsOf(await bootstrap.serversFor('org')), ['https://override.example/rdap/']);
      assert.equal((await bootstrap.serversFor('zz')).kind, 'none');
    } finally {
      await bootstrap.close();
      dir.remove();
    }
  });

  it('RDAP_BOOTSTRAP_OVERRIDES > the file > RDAP_EXTRA_SERVERS; the extras also serve while the file cannot load', async () => {
    const dir = tempDir('bootstrap');
    const file = path.join(dir.dir, 'dns.json');
    writeFileSync(file, ianaShaped('https://rdap.verisign.com/com/v1/'));
    const extras = {
      de: ['https://rdap.denic.de'],
      uk: ['https://extra.example/uk/'],
      org: ['https://extra.example/org/'],
    };
    const bootstrap = new RdapBootstrap(
      options(file, new ManualClock(), { overrides: { org: 'https://override.example/rdap/' }, extras }),
    );
    const missing = new RdapBootstrap(options(path.join(dir.dir, 'absent.json'), new ManualClock(), { extras }));
    try {
      assert.deepEqual(await bootstrap.serversFor('de'), {
        kind: 'servers',
        tld: 'de',
        baseUrls: ['https://rdap.denic.de/'],
        origin: 'extra',
      });
      assert.deepEqual(urlsOf(await bootstrap.serversFor('uk')), ['https://rdap.nominet.uk/uk/'], 'the file wins');
      const org = await bootstrap.serversFor('org');
      assert.deepEqual(
        [urlsOf(org), org.kind === 'servers' && org.origin],
        [['https://override.example/rdap/'], 'override'],
      );
      assert.deepEqual(urlsOf(await missing.serversFor('de')), ['https://rdap.denic.de/']);
      assert.equal((await missing.serversFor('com')).kind, 'unavailable');
      const all = await bootstrap.allServers();
      assert.deepEqual(
        [all.fileLoaded, all.servers.get('de')?.origin, all.servers.get('uk')?.origin, all.servers.get('org')?.origin],
        [true, 'extra', 'iana', 'override'],
      );
    } finally {
      await Promise.all([bootstrap.close(), missing.close()]);
      dir.remove();
    }
  });

  it('refreshes in the background once stale, serving the old copy meanwhile', async () => {
    const dir = tempDir('bootstrap');
    const file = path.join(dir.dir, 'dns.json');
    writeFileSync(file, ianaShaped('https://old.example/'));
    const clock = new ManualClock('2026-03-10T00:00:00Z');
    const bootstrap = new RdapBootstrap(options(file, clock));
    try {
      assert.ok(urlsOf(await bootstrap.serversFor('net')).includes('https://old.example/'));
      writeFileSync(file, ianaShaped('https://new.example/'));
      assert.ok(urlsOf(await bootstrap.serversFor('net')).includes('https://old.example/'), 'still fresh');
      clock.advance(86_400_000);
      assert.ok(urlsOf(await bootstrap.serversFor('net')).includes('https://old.example/'), 'served while refreshing');
      await bootstrap.whenIdle();
      assert.ok(urlsOf(await bootstrap.serversFor('net')).includes('https://new.example/'));
    } finally {
      await bootstrap.close();
      dir.remove();
    }
  });

  it('keeps a downloaded copy on disk and starts from it when the source is down', async () => {
    const sim = await startUpstreamSim();
    const dir = tempDir('bootstrap');
    const cacheFile = path.join(dir.dir, 'rdap', 'dns.json');
    const source = `${sim.url}/rdap/bootstrap/dns.json`;
    const clock = new ManualClock();
    try {
      const first = new RdapBootstrap(options(source, clock, { cacheFile }));
      const pir = urlsOf(await first.serversFor('org'));
      assert.ok(Array.isArray(pir) && /^http:\/\/127\.0\.0\.1:\d+\/rdap\/pir\/$/.test(pir[0]!), String(pir));
      await first.close();
      await sim.close();
      clock.advance(2 * 86_400_000);
      const errors: unknown[] = [];
      const second = new RdapBootstrap(options(source, clock, { cacheFile, onError: (e) => errors.push(e) }));
      assert.deepEqual(urlsOf(await second.serversFor('org')), pir, 'stale copy beats nothing');
      assert.equal(errors.length, 1);
      await second.close();
      const third = new RdapBootstrap(options(source, clock, { cacheFile: path.join(dir.dir, 'none.json') }));
      assert.equal((await third.serversFor('org')).kind, 'unavailable');
      await third.close();
    } finally {
      dir.remove();
    }
  });

  it('asks the source again at every start, so a fresh copy naming moved servers is replaced at once', async () => {
    // One URL whose content changes, as a simulator restarted on other ports (or a new IANA file) gives.
    let served = ianaShaped('https://first.example/rdap/');
    const conditional: (string | undefined)[] = [];
    const source = createServer((request, response) => {
      conditional.push(request.headers['if-modified-since']);
      response.writeHead(200, { 'content-type': 'application/json' }).end(served);
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const { port } = source.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/dns.json`;
    const dir = tempDir('bootstrap-moved');
    const cacheFile = path.join(dir.dir, 'dns.json');
    const clock = new ManualClock();
    try {
      const first = new RdapBootstrap(options(url, clock, { cacheFile }));
      assert.deepEqual(urlsOf(await first.serversFor('com')), [
        'https://first.example/rdap/',
        'http://rdap.verisign.com/com/v1/',
      ]);
      await first.close();
      served = ianaShaped('https://moved.example/rdap/');
      clock.advance(60_000); // a restart a minute later: the copy is far from stale
      const second = new RdapBootstrap(options(url, clock, { cacheFile }));
      assert.deepEqual(urlsOf(await second.serversFor('com')), [
        'https://moved.example/rdap/',
        'http://rdap.verisign.com/com/v1/',
      ]);
      await second.close();
      assert.equal(conditional[0], undefined, 'no copy yet: an unconditional request');
      assert.ok(conditional[1], 'with a copy on disk the request is conditional (If-Modified-Since)');
    } finally {
      source.close();
      dir.remove();
    }
  });

  it('keeps the disk copy when the source answers 304 Not Modified', async () => {
    const source = createServer((request, response) => {
      if (request.headers['if-modified-since']) response.writeHead(304).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(ianaShaped('https://kept.example/'));
    });
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    const { port } = source.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/dns.json`;
    const dir = tempDir('bootstrap-304');
    const cacheFile = path.join(dir.dir, 'dns.json');
    const clock = new ManualClock();
    try {
      const first = new RdapBootstrap(options(url, clock, { cacheFile }));
      await first.serversFor('com');
      await first.close();
      const errors: unknown[] = [];
      const second = new RdapBootstrap(options(url, clock, { cacheFile, onError: (e) => errors.push(e) }));
      assert.deepEqual(urlsOf(await second.serversFor('com')), [
        'https://kept.example/',
        'http://rdap.verisign.com/com/v1/',
      ]);
      assert.deepEqual(errors, []);
      await second.close();
    } finally {
      source.close();
      dir.remove();
    }
  });

  it('refuses bad override and reserved-name configuration by variable name', () => {
    assert.throws(
      () => loadDomainIntelConfig({ RDAP_BOOTSTRAP_OVERRIDES: '{not json' }),
      /RDAP_BOOTSTRAP_OVERRIDES: must be valid JSON/,
    );
    assert.throws(
      () => loadDomainIntelConfig({ RDAP_BOOTSTRAP_OVERRIDES: '{"io":"not a url"}' }),
      /RDAP_BOOTSTRAP_OVERRIDES/,
    );
    assert.throws(() => loadDomainIntelConfig({ CHECK_RESERVED_NAMES: '{"com":"premium"}' }), /CHECK_RESERVED_NAMES/);
    const config = loadDomainIntelConfig({ RDAP_BOOTSTRAP_OVERRIDES: '{"io":"https://rdap.example/io"}' });
    assert.deepEqual(config.RDAP_BOOTSTRAP_OVERRIDES, { io: 'https://rdap.example/io' });
  });
});
