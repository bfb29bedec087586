import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ManualClock } from '@repo/server-kit';
import { tempDir, testTimeout, testTimeoutEnv } from '@repo/server-kit/testing';
import { loadDomainIntelConfig } from '../src/config.ts';
import { WaybackClient } from '../src/enrich/wayback-client.ts';
import { createRdapEngine, type RdapEngine } from '../src/rdap/engine.ts';
import { readReal } from './real-corpus.ts';
import { ReplayServer, readCassette } from './replay-server.ts';

const synthetic = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', 'synthetic', name));

/** An RDAP engine whose bootstrap sends each TLD to the given base URLs (in order). */
function engineFor(services: Record<string, string[]>, env: Record<string, string> = {}) {
  const dir = tempDir('rdap-real');
  const bootstrapFile = path.join(dir.dir, 'dns.json');
  writeFileSync(
    bootstrapFile,
    JSON.stringify({
      version: '1.0',
      services: Object.entries(services).map(([tld, urls]) => [[tld], urls]),
    }),
  );
  const config = loadDomainIntelConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir.dir,
    RDAP_BOOTSTRAP_URL: bootstrapFile,
    RDAP_ALLOW_INSECURE: '1',
    RDAP_REQUEST_TIMEOUT_MS: testTimeoutEnv(2_000),
    RDAP_RETRY_MAX_WAIT_MS: '0',
    // Every exchange here is on one loopback host: its circuit must not open between cases.
    RDAP_BREAKER_MIN_REQUESTS: '10000',
    ...env,
  });
  const engine = createRdapEngine(config, new ManualClock('2026-03-10T12:00:00Z'), () => {});
  return {
    engine,
    async close() {
      await engine.close();
      dir.remove();
    },
  };
}

describe('RDAP HTTP behaviour against replayed real exchanges', () => {
  const server = new ReplayServer();
  let engine: RdapEngine;
  let close: () => Promise<void>;

  before(async () => {
    await server.start();
    ({ engine, close } = engineFor({
      com: [`${server.url}/verisign/`],
      design: [`${server.url}/centralnic/`],
      fr: [`${server.url}/afnic/`],
      // rdap.org is a redirector: every answer is a 302 to the registry.
      org: [`${server.url}/rdap.org/`],
      test: [`${server.url}/gateway/`],
      // Two servers for one registry: the first is down.
      net: [`${server.url}/down/`, `${server.url}/up/`],
    }));
  });
  after(async () => {
    await close();
    await server.close();
  });

  /** The registry exchange of a cassette (its second; the first is rdap.org's redirect). */
  const registryExchange = (cassette: string) => {
    const exchanges = readCassette(readReal(`exchanges/${cassette}.yml`));
    return exchanges.at(-1)!;
  };

  it("Verisign's 404 with an empty body (application/rdap+json) means not registered", async () => {
    const { answer } = registryExchange('jarthod-raises_an_error_for_domain_not_found_when_the_response_body_is_empty');
    assert.equal(answer.status, 404);
    server.answer('/verisign/domain/jsiqpmcurt.com', answer);
    const lookup = await engine.lookupDomain('jsiqpmcurt.com', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'not_found');
  });

  it("CentralNic's 404 with an RDAP error object means not registered", async () => {
    const { answer } = registryExchange('jarthod-raises_an_error_for_domain_not_found');
    server.answer('/centralnic/domain/jsiqpmcurt.design', answer);
    const lookup = await engine.lookupDomain('jsiqpmcurt.design', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'not_found');
  });

  it('AFNIC answering application/json (not rdap+json) is read as RDAP', async () => {
    const { answer } = registryExchange(
      'jarthod-supports_rdap_nic_fr_which_does_not_accept_rdap_json_mimetype_as_of_2022-12-29_',
    );
    assert.equal(answer.headers['content-type'], 'application/json');
    server.answer('/afnic/domain/airport.fr', answer);
    const lookup = await engine.lookupDomain('airport.fr', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'found', JSON.stringify(lookup));
  });

  it("AFNIC's own 404 error list (2026: `errors[].errorCode` NOT_FOUND_DOMAIN_NAME_WITH_NAME) means not registered", async () => {
    const { answer } = registryExchange(
      'jarthod-queries_the_authoritative_server_directly_from_the_bundled_bootstrap_files',
    );
    assert.equal(answer.status, 404);
    assert.equal(answer.headers['content-type'], 'application/json');
    server.answer('/afnic/domain/jsiqpmcurt.fr', answer);
    const lookup = await engine.lookupDomain('jsiqpmcurt.fr', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'not_found', JSON.stringify(lookup));
  });

  it('a JSON error list that names no missing domain is still unknown', async () => {
    server.answer('/gateway/domain/errors-list.test', {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errors: [{ errorCode: 'ROUTE_NOT_FOUND', message: 'No route' }] }),
    });
    const lookup = await engine.lookupDomain('errors-list.test', { traffic: 'interactive' });
    assert.equal(lookup.kind === 'unknown' && lookup.reason, 'malformed_response');
  });

  for (const [file, contentType] of [
    ['cdn-nosuchkey.xml', 'application/xml'],
    ['gateway-message.json', 'application/json'],
    ['plain.txt', 'text/plain'],
    ['page.html', undefined],
  ] as const) {
    it(`a 404 that is not an RDAP answer (${file}, ${contentType ?? 'no content type'}) is unknown, never available`, async () => {
      const name = `missing-${file.replace(/\W/g, '-')}.test`;
      server.answer(`/gateway/domain/${name}`, {
        status: 404,
        headers: contentType ? { 'content-type': contentType } : {},
        body: synthetic(`not-rdap-404/${file}`),
      });
      const lookup = await engine.lookupDomain(name, { traffic: 'interactive' });
      assert.equal(lookup.kind, 'unknown');
      assert.equal(lookup.kind === 'unknown' && lookup.reason, 'malformed_response');
    });
  }

  it("follows rdap.org's 302 to the registry (the recorded redirect, pointed at loopback)", async () => {
    const [redirect, registry] = readCassette(readReal('exchanges/jarthod-raises_an_error_for_domain_not_found.yml'));
    assert.equal(redirect?.answer.status, 302);
    // The recorded Location is https://rdap.centralnic.com/…; this variant keeps the path on loopback.
    server.answer('/rdap.org/domain/jsiqpmcurt.org', {
      ...redirect!.answer,
      headers: { ...redirect!.answer.headers, location: `${server.url}/centralnic/domain/jsiqpmcurt.org` },
    });
    server.answer('/centralnic/domain/jsiqpmcurt.org', registry!.answer);
    const lookup = await engine.lookupDomain('jsiqpmcurt.org', { traffic: 'interactive' });
    assert.equal(lookup.kind, 'not_found');
    assert.equal(lookup.kind === 'not_found' && lookup.source, `${server.url}/centralnic/domain/jsiqpmcurt.org`);
  });

  it('stops after 3 redirects, and never follows one to a private address', async () => {
    for (let hop = 0; hop < 5; hop++) {
      server.answer(`/rdap.org/domain/loop${hop}.org`, {
        status: 302,
        headers: { location: `${server.url}/rdap.org/domain/loop${hop + 1}.org` },
        body: '',
      });
    }
    const looped = await engine.lookupDomain('loop0.org', { traffic: 'interactive' });
    assert.equal(looped.kind === 'unknown' && looped.reason, 'upstream_error');
    assert.equal(server.requests.get('/rdap.org/domain/loop4.org'), undefined);

    server.answer('/rdap.org/domain/private.org', {
      status: 307,
      headers: { location: 'http://10.1.2.3/domain/private.org' },
      body: '',
    });
    const refused = await engine.lookupDomain('private.org', { traffic: 'interactive' });
    assert.equal(refused.kind, 'unknown');
  });

  it("fails over to the bootstrap entry's next server when the first one fails", async () => {
    server.answer('/down/domain/example.net', { status: 503, headers: {}, body: '' });
    const { answer } = registryExchange('jarthod-query_the_correct_bootstrap_URL_and_follow_redirections');
    // Verisign's google.com answer, served for example.net's second server: the name differs, so
    // the client must refuse it as an answer about another name. A failover that never happened
    // would give upstream_error instead.
    server.answer('/up/domain/example.net', answer);
    const lookup = await engine.lookupDomain('example.net', { traffic: 'interactive' });
    assert.equal(server.requests.get('/down/domain/example.net'), 1);
    assert.equal(server.requests.get('/up/domain/example.net'), 1);
    assert.equal(lookup.kind === 'unknown' && lookup.reason, 'malformed_response');
  });
});

describe('failing over from a hanging registry server', () => {
  it('the first server gets RDAP_REQUEST_TIMEOUT_MS of the budget, the next one the rest', async () => {
    // Accepts every request and never answers.
    const requests: string[] = [];
    const hanging = createServer((request) => void requests.push(request.url ?? ''));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const server = await new ReplayServer().start();
    const { engine, close } = engineFor(
      { net: [`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/down/`, `${server.url}/up/`] },
      { RDAP_REQUEST_TIMEOUT_MS: '100', RDAP_LOOKUP_BUDGET_MS: testTimeoutEnv(10_000) },
    );
    try {
      server.answer('/up/domain/example.net', { status: 404, headers: {}, body: '' });
      const lookup = await engine.lookupDomain('example.net', { traffic: 'interactive' });
      assert.deepEqual(requests, ['/down/domain/example.net']);
      assert.equal(server.requests.get('/up/domain/example.net'), 1);
      assert.equal(lookup.kind, 'not_found');
    } finally {
      await close();
      await server.close();
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});

describe('429 cool-downs are capped', () => {
  it('a Retry-After of a day pauses the host only RDAP_MAX_COOL_DOWN_MS, then it is asked again', async () => {
    const server = await new ReplayServer().start();
    const { engine, close } = engineFor({ com: [`${server.url}/verisign/`] }, { RDAP_MAX_COOL_DOWN_MS: '300' });
    try {
      const { answer } = readCassette(
        readReal('exchanges/jarthod-raises_an_error_for_domain_not_found_when_the_response_body_is_empty.yml'),
      ).at(-1)!;
      let throttled = true;
      server.answer('/verisign/domain/jsiqpmcurt.com', () =>
        throttled ? { status: 429, headers: { 'retry-after': '86400' }, body: '' } : answer,
      );
      const first = await engine.lookupDomain('jsiqpmcurt.com', { traffic: 'interactive' });
      assert.equal(first.kind === 'unknown' && first.reason, 'rate_limited');
      throttled = false;
      // Past the 300 ms cool-down cap (a longer wait only waits longer).
      await new Promise((resolve) => setTimeout(resolve, testTimeout(400)));
      const later = await engine.lookupDomain('jsiqpmcurt.com', { traffic: 'interactive' });
      assert.equal(later.kind, 'not_found');
    } finally {
      await close();
      await server.close();
    }
  });
});

describe('the Wayback CDX server, replayed', () => {
  it('decodes the gzip answer the real server sends (recorded by cdx_toolkit)', async () => {
    const [recorded] = readReal('cdx/cdx_toolkit-test_multi_ia.jsonl')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          JSON.parse(line) as {
            response_status_code: number;
            response_text: string;
            response_headers: Record<string, string>;
          },
      );
    assert.equal(recorded?.response_headers['Content-Encoding'], 'gzip');
    const server = await new ReplayServer().start();
    let acceptEncoding: string | undefined;
    server.answer('/cdx/search/cdx', (request) => {
      acceptEncoding = request.headers['accept-encoding'];
      return {
        status: recorded!.response_status_code,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(recorded!.response_text),
      };
    });
    const wayback = new WaybackClient({
      cdxUrl: `${server.url}/cdx/search/cdx`,
      requestsPerMinute: 6000,
      timeoutMs: 5000,
    });
    try {
      // First row of the recorded answer: ["org,commoncrawl)/","20080328041443",…].
      assert.equal(await wayback.firstCapture('commoncrawl.org'), Date.UTC(2008, 2, 28, 4, 14, 43));
      assert.match(acceptEncoding ?? '', /gzip/);
    } finally {
      await wayback.close();
      await server.close();
    }
  });
});
