import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { connectRedis, createRedis, ManualClock } from '@repo/server-kit';
import { redisTarget, testTimeout } from '@repo/server-kit/testing';
import type { Redis } from 'ioredis';
import { createHostLimits } from '../src/rdap/engine.ts';
import { HostRates } from '../src/rdap/host-rates.ts';
import { decodeWhoisAnswer } from '../src/whois/decode.ts';
import { type WhoisExchange, WhoisTransport, type WhoisTransportOptions } from '../src/whois/transport.ts';

/**
 * The port-43 transport against hostile servers on loopback: what each does to a lookup must be a
 * failure with a reason (never an answer that could read "available"), in bounded time and memory.
 */

type Behaviour = (socket: Socket, query: string) => void;

interface HostileServer {
  port: number;
  queries: string[];
  close(): Promise<void>;
}

async function serve(behaviour: Behaviour): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const queries: string[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end >= 0) {
        const query = buffered.slice(0, end);
        queries.push(query);
        behaviour(socket, query);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    queries,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

function transport(overrides: Partial<WhoisTransportOptions> = {}, redis?: Redis): WhoisTransport {
  const { limits } = createHostLimits({
    redis,
    rates: new HostRates(1_000),
    settings: { decreaseFactor: 0.5, minPerSecond: 1, recoveryMs: 60_000 },
    interactiveShare: 0.2,
    clock: new ManualClock('2026-03-10T12:00:00Z'),
    onError: () => {},
  });
  return new WhoisTransport({
    allowInsecure: true,
    connectTimeoutMs: testTimeout(5_000),
    slowAfterMs: testTimeout(2_000),
    maxAnswerBytes: 64 * 1024,
    hostConcurrency: 2,
    limits,
    throttlePauseMs: 60_000,
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 100, resetTimeoutMs: 30_000 },
    ...overrides,
  });
}

const ask = (t: WhoisTransport, port: number, query = 'example.io', deadlineMs = testTimeout(20_000)) =>
  t.query({ host: '127.0.0.1', port }, query, { traffic: 'interactive', deadline: Date.now() + deadlineMs });

function reasonOf(exchange: WhoisExchange): string {
  return exchange.kind === 'failure' ? exchange.reason : 'answer';
}

describe('WHOIS transport (RFC 3912 over TCP)', () => {
  const servers: HostileServer[] = [];
  const open = async (behaviour: Behaviour) => {
    const server = await serve(behaviour);
    servers.push(server);
    return server;
  };
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('sends the query with CRLF and reads the answer to the close, bytes as sent', async () => {
    const latin1 = Buffer.from('Domain: m\xfcnchen.de\r\nStatus: connect\r\n', 'latin1');
    const server = await open((socket) => socket.end(latin1));
    const t = transport();
    const exchange = await ask(t, server.port, '-T dn,ace xn--mnchen-3ya.de');
    assert.equal(exchange.kind, 'answer');
    assert.deepEqual(server.queries, ['-T dn,ace xn--mnchen-3ya.de']);
    if (exchange.kind === 'answer') {
      assert.deepEqual(exchange.bytes, latin1);
      assert.match(decodeWhoisAnswer(exchange.bytes, 'iso-8859-1'), /münchen\.de/);
    }
    await t.close();
  });

  it('a huge answer is cut at the cap: response_too_large', async () => {
    const server = await open((socket) => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      for (let sent = 0; sent < 1024 * 1024; sent += chunk.length) socket.write(chunk);
      socket.end();
    });
    const t = transport({ maxAnswerBytes: 64 * 1024 });
    assert.equal(reasonOf(await ask(t, server.port)), 'response_too_large');
    await t.close();
  });

  it('a server that answers and never closes, or drips, is cut off by the deadline: timeout', async () => {
    const neverCloses = await open((socket) => socket.write('Domain Name: example.io\r\n'));
    const drips = await open((socket) => {
      const timer = setInterval(() => socket.write('.'), 20);
      socket.on('close', () => clearInterval(timer));
    });
    // It ran past the slow figure before the deadline ended it: a hanging server, not our haste.
    const t = transport({ slowAfterMs: 50 });
    assert.equal(reasonOf(await ask(t, neverCloses.port, 'example.io', testTimeout(500))), 'timeout');
    assert.equal(reasonOf(await ask(t, drips.port, 'example.io', testTimeout(500))), 'timeout');
    await t.close();
  });

  it('an answer that closes after the slow figure but inside the deadline is the answer, not a timeout', async () => {
    const slow = await open((socket) => {
      const timer = setTimeout(() => socket.end('Domain Name: example.io\r\n'), 300);
      socket.on('close', () => clearTimeout(timer));
    });
    const t = transport({ slowAfterMs: 50 });
    const exchange = await ask(t, slow.port);
    assert.equal(exchange.kind, 'answer');
    if (exchange.kind === 'answer') assert.match(exchange.bytes.toString('latin1'), /example\.io/);
    await t.close();
  });

  it('a hanging server opens its circuit after the configured failures; our own short deadline never does', async () => {
    const silent = await open(() => {});
    const breaker = { errorThresholdPercentage: 50, volumeThreshold: 2, resetTimeoutMs: 60_000 };
    // Deadlines shorter than the slow figure end every attempt, and say nothing about the server.
    const patient = transport({ slowAfterMs: 60_000, breaker });
    for (let attempt = 0; attempt < 3; attempt++) {
      assert.equal(reasonOf(await ask(patient, silent.port, 'example.io', 100)), 'deadline_exceeded');
    }
    assert.equal(silent.queries.length, 3, 'every attempt was sent: the circuit stayed closed');
    // Attempts the deadline ends after the slow figure are the server's timeouts, which the breaker counts.
    const t = transport({ slowAfterMs: 50, breaker });
    assert.equal(reasonOf(await ask(t, silent.port, 'example.io', testTimeout(400))), 'timeout');
    assert.equal(reasonOf(await ask(t, silent.port, 'example.io', testTimeout(400))), 'timeout');
    assert.equal(reasonOf(await ask(t, silent.port)), 'circuit_open');
    assert.equal(silent.queries.length, 5, 'an open circuit sends nothing');
    await Promise.all([patient.close(), t.close()]);
  });

  it('a server that accepts and says nothing is our deadline when that comes first', async () => {
    const silent = await open(() => {});
    const t = transport({ slowAfterMs: 60_000 });
    assert.equal(reasonOf(await ask(t, silent.port, 'example.io', 200)), 'deadline_exceeded');
    await t.close();
  });

  it('a refused connection is network_error; an empty answer is an (empty) answer for the reader to judge', async () => {
    const closed = await open(() => {});
    const port = closed.port;
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const t = transport();
    assert.equal(reasonOf(await ask(t, port)), 'network_error');
    const empty = await open((socket) => socket.end());
    const exchange = await ask(t, empty.port);
    assert.equal(exchange.kind, 'answer');
    if (exchange.kind === 'answer') assert.equal(exchange.bytes.length, 0);
    await t.close();
  });

  it('binary garbage arrives as bytes and decodes without throwing', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256));
    const server = await open((socket) => socket.end(garbage));
    const t = transport();
    const exchange = await ask(t, server.port);
    assert.equal(exchange.kind, 'answer');
    if (exchange.kind === 'answer') assert.equal(typeof decodeWhoisAnswer(exchange.bytes), 'string');
    await t.close();
  });

  it('private and link-local addresses are refused before connecting, even in the insecure mode', async () => {
    const t = transport();
    for (const host of ['10.0.0.1', '192.168.1.1', '169.254.169.254', '::ffff:10.0.0.1']) {
      const exchange = await t.query({ host, port: 43 }, 'example.io', {
        traffic: 'interactive',
        deadline: Date.now() + testTimeout(5_000),
      });
      assert.equal(reasonOf(exchange), 'blocked_address', host);
    }
    const strict = transport({ allowInsecure: false });
    assert.equal(reasonOf(await ask(strict, 43)), 'blocked_address', 'loopback without the insecure mode');
    await Promise.all([t.close(), strict.close()]);
  });

  it('a throttling answer pauses the server: later queries fail fast with rate_limited, none is sent', async () => {
    const server = await open((socket) => socket.end('Query rate exceeded\r\n'));
    const t = transport();
    const first = await ask(t, server.port);
    assert.equal(first.kind, 'answer');
    if (first.kind === 'answer') await t.throttled({ host: '127.0.0.1', port: server.port }, first.generation);
    assert.equal(reasonOf(await ask(t, server.port)), 'rate_limited');
    assert.equal(server.queries.length, 1);
    await t.close();
  });
});

describe('WHOIS answer decoding', () => {
  it('reads UTF-8, ISO-2022-JP by its escapes, and falls back to Windows-1252 for other bytes', () => {
    assert.equal(decodeWhoisAnswer(Buffer.from('Inhaber: Müller', 'utf8')), 'Inhaber: Müller');
    // "日本" in ISO-2022-JP: ESC $ B, the JIS X 0208 bytes, ESC ( B.
    const jis = Buffer.from([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42]);
    assert.equal(decodeWhoisAnswer(jis), '日本');
    assert.equal(decodeWhoisAnswer(Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72])), 'Müller');
    assert.equal(decodeWhoisAnswer(Buffer.from('M\xfcller', 'latin1'), 'iso-8859-1'), 'Müller');
    assert.equal(decodeWhoisAnswer(Buffer.from('plain'), 'no-such-charset'), 'plain');
  });
});

describe('WHOIS servers paused for every instance through Redis', { skip: redisTarget().skip }, () => {
  it('a throttling answer seen by one instance pauses the server for the other: its query is not sent', async () => {
    const provisioned = redisTarget().provision();
    const clients = [0, 1].map(() =>
      createRedis({ url: process.env.REDIS_URL as string, keyPrefix: provisioned.keyPrefix }),
    );
    await Promise.all(clients.map((client) => connectRedis(client)));
    const server = await serve((socket) => socket.end('% Maximum queries per hour reached (100)\r\n'));
    const [first, second] = clients.map((client) => transport({}, client)) as [WhoisTransport, WhoisTransport];
    try {
      const answered = await ask(first, server.port);
      assert.equal(answered.kind, 'answer');
      if (answered.kind === 'answer')
        await first.throttled({ host: '127.0.0.1', port: server.port }, answered.generation);
      // The other instance's only wait is for the shared pause, which outlasts this deadline.
      assert.equal(reasonOf(await ask(second, server.port, 'example.be', 1_500)), 'rate_limited');
      assert.equal(server.queries.length, 1, 'the paused server was not asked again');
    } finally {
      await Promise.all([first.close(), second.close(), server.close()]);
      for (const client of clients) client.disconnect();
      await provisioned.cleanup();
    }
  });
});
