import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { createHostLimits } from '../src/rdap/engine.ts';
import { HostRates } from '../src/rdap/host-rates.ts';
import type { RdapLookup } from '../src/rdap/types.ts';
import { WhoisTransport } from '../src/whois/transport.ts';
import { WhoisClient } from '../src/whois/whois-client.ts';
import { WHOIS_CASES, WHOIS_CORPUS, type WhoisExpected } from './whois-corpus.ts';

/**
 * Every recorded real WHOIS answer (fixtures/real/whois, SOURCES.md there) served byte for byte by
 * a port-43 server on loopback and asked through the production client (transport, decoding, the
 * server's answer table): what each lookup says must be what the answer says, read by hand
 * (whois-corpus.ts), and none that is not a free-name answer may read available.
 */
describe('real WHOIS answers over TCP, through the WHOIS client', () => {
  let server: Server;
  let port = 0;
  /** The answer the loopback server sends next: the bytes of one recorded file. */
  let answer: Buffer = Buffer.alloc(0);
  const queries: string[] = [];

  before(async () => {
    server = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (chunk) => {
        queries.push(chunk.toString('latin1'));
        socket.end(answer);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  /** A client of its own per answer: a throttling answer pauses its server, which must not spill into the next case. */
  const ask = async (authority: string, name: string): Promise<RdapLookup> => {
    const { limits } = createHostLimits({
      rates: new HostRates(1_000),
      settings: { decreaseFactor: 0.5, minPerSecond: 1, recoveryMs: 60_000 },
      interactiveShare: 0,
      clock: new ManualClock('2026-11-27T12:00:00Z'),
      onError: () => {},
    });
    const transport = new WhoisTransport({
      allowInsecure: true,
      connectTimeoutMs: 30_000,
      slowAfterMs: 30_000,
      maxAnswerBytes: 1024 * 1024,
      hostConcurrency: 1,
      limits,
      throttlePauseMs: 60_000,
      breaker: { errorThresholdPercentage: 50, volumeThreshold: 1_000, resetTimeoutMs: 30_000 },
    });
    const client = new WhoisClient({
      transport,
      clock: new ManualClock('2026-11-27T12:00:00Z'),
      defaultBudgetMs: 60_000,
    });
    try {
      const tld = name.slice(name.indexOf('.') + 1);
      return await client.lookupDomain(
        name,
        { tld, authority, address: { host: '127.0.0.1', port } },
        {
          traffic: 'interactive',
        },
      );
    } finally {
      await transport.close();
    }
  };

  const kindOf = (lookup: RdapLookup): WhoisExpected | string => {
    if (lookup.kind === 'found') return 'registered';
    if (lookup.kind === 'unknown') return lookup.reason;
    return lookup.kind;
  };

  it(`reads each of the ${WHOIS_CASES.length} answers as it says, with its evidence`, async () => {
    const wrong: string[] = [];
    for (const [file, name, expected] of WHOIS_CASES) {
      answer = readFileSync(`${WHOIS_CORPUS}${file}`);
      const authority = file.slice(0, file.indexOf('/'));
      const lookup = await ask(authority, name);
      const kind = kindOf(lookup);
      if (kind !== expected) wrong.push(`${file}: ${kind}, expected ${expected}`);
      if (lookup.kind === 'found') {
        assert.equal(lookup.record.source, 'whois');
        assert.equal(lookup.record.server, `127.0.0.1:${port}`);
        assert.equal(lookup.record.domain, name);
      }
      if (lookup.kind === 'not_found') assert.deepEqual([lookup.via, lookup.server], ['whois', `127.0.0.1:${port}`]);
    }
    assert.deepEqual(wrong, []);
  });

  it('never reads available from an answer that is not a free-name answer, under any server of the table', async () => {
    const authorities = [...new Set(WHOIS_CASES.map(([file]) => file.slice(0, file.indexOf('/'))))];
    const falseAvailable: string[] = [];
    for (const [file, name, expected] of WHOIS_CASES.filter(([, , kind]) => kind !== 'not_found')) {
      answer = readFileSync(`${WHOIS_CORPUS}${file}`);
      for (const authority of authorities) {
        if ((await ask(authority, name)).kind === 'not_found')
          falseAvailable.push(`${file} (${expected}) as ${authority}`);
      }
    }
    assert.deepEqual(falseAvailable, []);
  });

  it("sends the query in the server's own syntax (DENIC's -T dn,ace, Verisign's domain)", async () => {
    queries.length = 0;
    answer = Buffer.from('');
    await ask('whois.denic.de', 'xn--mnchen-3ya.de');
    await ask('whois.verisign-grs.com', 'example.com');
    assert.deepEqual(queries, ['-T dn,ace xn--mnchen-3ya.de\r\n', 'domain example.com\r\n']);
  });
});
