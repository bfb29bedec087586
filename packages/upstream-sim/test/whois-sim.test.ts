import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIM_WHOIS_REGISTRIES, type SimWhoisServerId, startUpstreamSim, type UpstreamSim } from '../src/index.ts';

interface Exchange {
  bytes: Buffer;
  /** How the connection ended: the server closed it, reset it, or the client gave up. */
  ending: 'closed' | 'error' | 'open';
  chunks: number;
}

/** How long a client waits, once `until` is met, for the server to close: a pause, not a measurement. */
const CLOSE_GRACE_MS = 100;

/**
 * An RFC 3912 client: sends `line` + CRLF and reads until the server closes, or until `until`
 * holds and the server has not closed within CLOSE_GRACE_MS after it ('open').
 */
function query(address: string, line: string, until?: (received: Buffer) => boolean): Promise<Exchange> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), host ?? '127.0.0.1', () => socket.write(`${line}\r\n`));
    let grace: NodeJS.Timeout | undefined;
    const finish = (ending: Exchange['ending']) => {
      clearTimeout(grace);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), ending, chunks: chunks.length });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (grace === undefined && until?.(Buffer.concat(chunks)))
        grace = setTimeout(() => finish('open'), CLOSE_GRACE_MS);
    });
    socket.on('end', () => finish('closed'));
    socket.on('error', () => finish('error'));
  });
}

const text = (exchange: Exchange) => exchange.bytes.toString('utf8');

/**
 * What each real server says, read by hand from the real answers its format file names: a line
 * of its registered answer for `registered.<tld>`, its "no such domain" line, its reserved line.
 */
const EXPECTED: Record<
  SimWhoisServerId,
  {
    tld: string;
    registered: string;
    free: RegExp;
    reserved?: RegExp;
    throttled?: RegExp;
    queryOf?: (name: string) => string;
  }
> = {
  'godaddy-us': { tld: 'us', registered: 'Domain Name: registered.us', free: /^No Data Found$/m },
  auda: { tld: 'au', registered: 'Domain Name: REGISTERED.AU', free: /^NOT FOUND$/m },
  eurid: {
    tld: 'eu',
    registered: 'Domain: registered.eu',
    free: /^Status: AVAILABLE$/m,
    throttled: /^-1: Still in grace period, wait 7777777 seconds$/m,
  },
  'red-es': {
    tld: 'es',
    registered: '       Domain Name:                  registered.es',
    free: /^ {4}There is no information available on the domain consulted\.$/m,
  },
  'nic-it': {
    tld: 'it',
    registered: 'Domain:             registered.it',
    free: /^Status: {13}AVAILABLE$/m,
    reserved: /^Status: {13}RESERVED$/m,
  },
  jprs: {
    tld: 'jp',
    registered: '[Domain Name]                   REGISTERED.JP',
    free: /^No match!!\r?$/m,
    reserved: /^\[Status\] {24}Reserved\r?$/m,
    queryOf: (name) => `${name}/e`,
  },
  tcinet: {
    tld: 'ru',
    registered: 'domain:        REGISTERED.RU',
    free: /^No entries found for the selected source\(s\)\.$/m,
  },
  cnnic: {
    tld: 'cn',
    registered: 'Domain Name: registered.cn',
    free: /^No matching record\.$/m,
    reserved: /^The domain you requested is prohibited\.$/m,
  },
  iis: { tld: 'se', registered: 'domain:           registered.se', free: /^domain "[a-z]+\.se" not found\.$/m },
  punktum: {
    tld: 'dk',
    registered: 'Domain:               registered.dk',
    free: /^No entries found for the selected source\.$/m,
    reserved: /^Status: {15}Reserved$/m,
    throttled: /^# Too many connections\.$/m,
  },
  'dns-belgium': {
    tld: 'be',
    registered: 'Status:\tNOT AVAILABLE',
    free: /^Status:\tAVAILABLE\r?$/m,
    throttled: /^% Excessive querying, grace period of 2 seconds$/m,
  },
  'nic-at': { tld: 'at', registered: 'domain:         registered.at', free: /^% nothing found$/m },
  internetnz: {
    tld: 'nz',
    registered: 'query_status: 200 Active',
    free: /^query_status: 220 Available\r?$/m,
    throttled: /^query_status: 440 Request Denied\r?$/m,
  },
  'island-networks': { tld: 'gg', registered: 'Domain Name: registered.gg', free: /^Domain Status: Available$/m },
  somnic: { tld: 'so', registered: 'Domain Name: registered.so', free: /^Not found: [a-z]+\.so$/m },
  denic: {
    tld: 'de',
    registered: 'Status: connect',
    free: /^Status: free$/m,
    throttled: /^% Error: 55000000002 Connection refused; access control limit reached\.$/m,
    queryOf: (name) => `-T dn,ace ${name}`,
  },
};

describe('upstream-sim WHOIS servers', () => {
  let sim: UpstreamSim;
  before(async () => {
    sim = await startUpstreamSim();
    for (const { tld } of Object.values(EXPECTED)) {
      sim.world.register(`registered.${tld}`, {
        registrar: { name: 'Søren Registrar ApS', ianaId: '1234', url: 'https://registrar.example' },
      });
      sim.world.reserved.set(tld, new Set([`reserved.${tld}`]));
    }
  });
  after(() => sim.close());

  const address = (server: SimWhoisServerId) => sim.whois.address(server);
  const ask = (server: SimWhoisServerId, name: string) =>
    query(address(server), EXPECTED[server].queryOf?.(name) ?? name);

  it('lists a loopback server per WHOIS TLD, each on a port of its own', () => {
    const servers = sim.whois.servers();
    for (const [server, { tld }] of Object.entries(EXPECTED)) {
      assert.match(servers[tld] ?? '', /^127\.0\.0\.1:\d+$/, tld);
      assert.equal(servers[tld], address(server as SimWhoisServerId));
    }
    assert.equal(new Set(Object.values(servers)).size, Object.keys(EXPECTED).length);
  });

  for (const [server, expected] of Object.entries(EXPECTED) as [
    SimWhoisServerId,
    (typeof EXPECTED)[SimWhoisServerId],
  ][]) {
    it(`${server}: registered, free and reserved answers in the real server's format`, async () => {
      const registered = await ask(server, `registered.${expected.tld}`);
      assert.equal(registered.ending, 'closed');
      assert.ok(text(registered).replaceAll('\r\n', '\n').split('\n').includes(expected.registered), text(registered));
      assert.doesNotMatch(text(registered), expected.free);
      const free = await ask(server, `free.${expected.tld}`);
      assert.equal(free.ending, 'closed');
      assert.match(text(free), expected.free);
      const reserved = await ask(server, `reserved.${expected.tld}`);
      assert.match(
        text(reserved),
        expected.reserved ?? expected.free,
        'a registry without a reserved text answers as for a free name',
      );
    });
  }

  it('answers JPRS in Japanese, in ISO-2022-JP, unless the query ends in /e', async () => {
    const japanese = await query(address('jprs'), 'registered.jp');
    assert.ok(japanese.bytes.includes(Buffer.from([0x1b, 0x24, 0x42])), 'switches to JIS X 0208');
    const decoded = new TextDecoder('iso-2022-jp').decode(japanese.bytes);
    assert.match(decoded, /^\[状態\] {26}Active\r$/m);
    assert.match(decoded, /^\[Domain Name\] {19}REGISTERED\.JP\r$/m);
    const english = await query(address('jprs'), 'registered.jp/e');
    assert.ok(
      english.bytes.every((byte) => byte < 0x80),
      'ASCII only',
    );
    assert.match(text(english), /^\[Status\] {24}Active\r$/m);
  });

  it('answers DK Hostmaster in Latin-1 unless the query asks --charset=utf-8', async () => {
    const latin1 = await query(address('punktum'), 'registered.dk');
    assert.match(latin1.bytes.toString('latin1'), /^Registrar: {12}Søren Registrar ApS$/m);
    const utf8 = await query(address('punktum'), '--charset=utf-8 registered.dk');
    assert.match(text(utf8), /^Registrar: {12}Søren Registrar ApS$/m);
  });

  it("answers DENIC's bare-name query and its -T dn,ace query alike, and an unreadable one with Status: invalid", async () => {
    assert.match(text(await query(address('denic'), 'registered.de')), /^Status: connect$/m);
    assert.match(text(await query(address('denic'), 'not a name')), /^Status: invalid$/m);
  });

  it('throttles above the rate limit with the registry text, or by dropping the connection', async () => {
    for (const [server, expected] of Object.entries(EXPECTED) as [
      SimWhoisServerId,
      (typeof EXPECTED)[SimWhoisServerId],
    ][]) {
      sim.whois.setFaults(server, { rateLimitPerSecond: 1 });
      await ask(server, `free.${expected.tld}`);
      const limited = await ask(server, `free.${expected.tld}`);
      if (expected.throttled) assert.match(text(limited), expected.throttled, server);
      else assert.equal(limited.bytes.length, 0, server);
      assert.doesNotMatch(text(limited), expected.free, server);
      sim.whois.setFaults(server, { throttleByDropping: true });
      assert.equal((await ask(server, `free.${expected.tld}`)).bytes.length, 0, server);
    }
    sim.whois.clearFaults();
  });

  it('refuses, answers nothing, answers garbage, drips, pads to megabytes, waits', async () => {
    sim.whois.setFaults('somnic', { refuse: true });
    const refused = await ask('somnic', 'free.so');
    assert.equal(refused.bytes.length, 0);
    assert.equal(refused.ending, 'error');

    sim.whois.setFaults('somnic', { refuse: false, empty: true });
    const empty = await ask('somnic', 'free.so');
    assert.deepEqual([empty.bytes.length, empty.ending], [0, 'closed']);

    sim.whois.setFaults('somnic', { empty: false, garbage: true });
    const garbage = await ask('somnic', 'free.so');
    assert.ok(garbage.bytes.length >= 4096 && garbage.bytes.includes(0));
    assert.doesNotMatch(garbage.bytes.toString('latin1'), /Not found/);

    sim.whois.setFaults('somnic', { garbage: false, dripIntervalMs: 1 });
    const drip = await ask('somnic', 'free.so');
    assert.match(text(drip), /^Not found: free\.so$/m);
    assert.ok(drip.chunks > 1, 'arrives in pieces');

    sim.whois.setFaults('somnic', { dripIntervalMs: null, hugeAnswerBytes: 3_000_000 });
    const huge = await ask('somnic', 'registered.so');
    assert.ok(huge.bytes.length >= 3_000_000);
    assert.match(text(huge), /^Domain Name: registered\.so$/m);

    sim.whois.setFaults('somnic', { hugeAnswerBytes: null, latencyMs: 20 });
    assert.match(text(await ask('somnic', 'free.so')), /^Not found: free\.so$/m);
    sim.whois.clearFaults();
  });

  it('answers and keeps the connection open when told never to close', async () => {
    const answered = (received: Buffer) => /Not found: free\.so/.test(received.toString());
    assert.equal((await query(address('somnic'), 'free.so', answered)).ending, 'closed', 'closes by default');
    sim.whois.setFaults('somnic', { neverClose: true });
    const answer = await query(address('somnic'), 'free.so', answered);
    assert.match(text(answer), /^Not found: free\.so$/m);
    assert.equal(answer.ending, 'open');
    sim.whois.clearFaults();
  });

  it('takes its fault switches and lists its servers over HTTP too, for the demo', async () => {
    assert.deepEqual(await (await fetch(`${sim.url}/whois/servers`)).json(), sim.whois.servers());
    const put = await fetch(`${sim.url}/whois/admin/faults/cnnic`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ empty: true }),
    });
    assert.equal(put.status, 200);
    assert.equal((await ask('cnnic', 'free.cn')).bytes.length, 0);
    assert.equal((await fetch(`${sim.url}/whois/admin/faults`, { method: 'DELETE' })).status, 200);
    assert.match(text(await ask('cnnic', 'free.cn')), /^No matching record\.$/m);
    const unknown = await fetch(`${sim.url}/whois/admin/faults/nope`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(unknown.status, 404);
  });

  it('counts queries per server', async () => {
    sim.whois.resetCounts();
    await ask('cnnic', 'free.cn');
    await ask('cnnic', 'free.cn');
    assert.equal(sim.whois.requestCount('cnnic'), 2);
    assert.equal(sim.whois.requestCount('iis'), 0);
    sim.whois.resetCounts();
    assert.equal(sim.whois.requestCount('cnnic'), 0);
  });
});

describe('upstream-sim WHOIS servers on close', () => {
  it('closes every connection, hung ones included', async () => {
    const sim = await startUpstreamSim();
    sim.whois.setFaults('eurid', { hang: true });
    const hung = query(sim.whois.address('eurid'), 'free.eu');
    while (sim.whois.requestCount('eurid') === 0) await sleep(5);
    await sim.close();
    const exchange = await hung;
    assert.equal(exchange.bytes.length, 0);
    assert.notEqual(exchange.ending, 'open');
  });
});

describe("upstream-sim WHOIS answers read by the service's pattern table", () => {
  interface Patterns {
    not_found: string[];
    rate_limited: string[];
    reserved?: string[];
    charset: string;
    query?: string;
  }
  const table = JSON.parse(
    readFileSync(new URL('../../../apps/domain-intel/src/tlds/data/whois-answers.json', import.meta.url), 'utf8'),
  ).servers as Record<string, Patterns>;
  /** The table names two servers by the hosts of their recorded answers, older than root-zone.json's names. */
  const RECORDED_AS: Record<string, string> = {
    'whois.punktum.dk': 'whois.dk-hostmaster.dk',
    'whois.irs.net.nz': 'whois.srs.net.nz',
  };
  const matches = (sources: string[] | undefined, answer: string) =>
    (sources ?? []).some((source) => new RegExp(source, 'm').test(answer.replaceAll('\r\n', '\n')));

  it('reads every simulated server: free as free, registered as neither free, throttled nor reserved', async () => {
    const sim = await startUpstreamSim();
    try {
      for (const [server, { tld, reserved, throttled }] of Object.entries(EXPECTED) as [
        SimWhoisServerId,
        (typeof EXPECTED)[SimWhoisServerId],
      ][]) {
        const host = SIM_WHOIS_REGISTRIES[server].host;
        const patterns = table[host] ?? table[RECORDED_AS[host] ?? ''];
        assert.ok(patterns, `${host} has patterns`);
        sim.world.register(`registered.${tld}`);
        sim.world.reserved.set(tld, new Set([`reserved.${tld}`]));
        const line = (name: string) => patterns.query?.replace('{name}', name) ?? name;
        const read = async (name: string) => {
          const { bytes } = await query(sim.whois.address(server), line(name));
          return new TextDecoder(patterns.charset).decode(bytes);
        };
        assert.ok(matches(patterns.not_found, await read(`free.${tld}`)), `${server}: free`);
        const registered = await read(`registered.${tld}`);
        for (const kind of ['not_found', 'rate_limited', 'reserved'] as const) {
          assert.ok(!matches(patterns[kind], registered), `${server}: registered is not ${kind}`);
        }
        if (reserved) assert.ok(matches(patterns.reserved, await read(`reserved.${tld}`)), `${server}: reserved`);
        if (throttled) {
          sim.whois.setFaults(server, { rateLimitPerSecond: 0 });
          assert.ok(matches(patterns.rate_limited, await read(`free.${tld}`)), `${server}: throttled`);
          sim.whois.clearFaults(server);
        }
      }
    } finally {
      await sim.close();
    }
  });
});
