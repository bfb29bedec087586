import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '@repo/server-kit';
import { tempDir } from '@repo/server-kit/testing';
import { Command } from 'commander';
import { registerTldsCommands } from '../src/cli/tlds-commands.ts';
import { loadDomainIntelConfig } from '../src/config.ts';
import { readRootZone } from '../src/tlds/tld-data.ts';

/**
 * `domain-intel tlds refresh` against IANA played on loopback with IANA's own files (copies in
 * fixtures/real/iana, SOURCES.md there): the TLD list, the root-zone database index, and
 * whois.iana.org's answers, served by a port-43 server.
 */
const real = (name: string) => readFileSync(fileURLToPath(new URL(`./fixtures/real/iana/${name}`, import.meta.url)));

describe('domain-intel tlds refresh', () => {
  const dir = tempDir('tlds-refresh');
  const whoisAnswers = new Map([
    ['app', real('ianawhois-APP.txt')],
    ['io', real('ianawhois-IO.txt')],
    ['xn--p1ai', real('ianawhois-XN--P1AI.txt')],
  ]);
  // IANA's list cut to the TLDs whose whois.iana.org answers we hold (its header line as published).
  const [header] = real('tlds-alpha-by-domain.txt').toString().split('\n');
  const list = `${header}\nAPP\nIO\nXN--P1AI\n`;
  const asked: string[] = [];
  const http = createHttpServer((request, response) => {
    if (request.url === '/TLD/tlds-alpha-by-domain.txt') response.end(list);
    else if (request.url === '/domains/root/db') response.end(real('root-db.html'));
    else response.writeHead(404).end();
  });
  const whois = createServer((socket) => {
    socket.once('data', (chunk) => {
      const query = chunk.toString().trim().toLowerCase();
      asked.push(query);
      socket.end(whoisAnswers.get(query) ?? '% Error: Invalid query\n');
    });
  });
  let httpUrl = '';
  let whoisPort = 0;

  before(async () => {
    http.listen(0, '127.0.0.1');
    whois.listen(0, '127.0.0.1');
    await Promise.all([once(http, 'listening'), once(whois, 'listening')]);
    httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    whoisPort = (whois.address() as AddressInfo).port;
  });
  after(() => {
    http.close();
    whois.close();
    dir.remove();
  });

  const run = async (args: string[]) => {
    const out: string[] = [];
    const program = new Command('domain-intel').exitOverride();
    const config = loadDomainIntelConfig({ NODE_ENV: 'test', DATA_DIR: dir.dir, RDAP_ALLOW_INSECURE: '1' });
    registerTldsCommands(program, () => ({ config, clock: new ManualClock('2026-11-27T10:00:00Z') }), {
      stdout: { write: (text: string) => out.push(text) } as unknown as NodeJS.WritableStream,
      stderr: { write: () => true } as unknown as NodeJS.WritableStream,
    } as never);
    await program.parseAsync(['node', 'domain-intel', ...args]);
    return out.join('');
  };

  it("writes a table the service loads, with IANA's type and WHOIS server of each TLD", async () => {
    const out = path.join(dir.dir, 'root-zone.json');
    const printed = await run([
      'tlds',
      'refresh',
      '--out',
      out,
      '--list-url',
      `${httpUrl}/TLD/tlds-alpha-by-domain.txt`,
      '--root-db-url',
      `${httpUrl}/domains/root/db`,
      '--whois-server',
      `127.0.0.1:${whoisPort}`,
    ]);
    assert.match(printed, /3 TLDs \(list 2026072401\), 3 with a WHOIS server/);
    assert.deepEqual(asked, ['app', 'io', 'xn--p1ai']);
    const table = readRootZone(out);
    // Read off the copies by hand: APP's 2023 answer names whois.nic.google, IO's whois.nic.io,
    // рф's whois.tcinet.ru; the index lists APP as generic, IO and рф as country-code.
    assert.deepEqual(table.entries, [
      { tld: 'app', type: 'generic', whois: 'whois.nic.google' },
      { tld: 'io', type: 'country-code', whois: 'whois.nic.io' },
      { tld: 'xn--p1ai', type: 'country-code', whois: 'whois.tcinet.ru' },
    ]);
    assert.equal(table.retrieved, '2026-11-27');
    assert.equal(table.published.version, '2026072401');
  });

  it('a TLD whois.iana.org does not answer for fails the refresh and leaves the table as it was', async () => {
    const out = path.join(dir.dir, 'root-zone.json');
    const before = readFileSync(out, 'utf8');
    whoisAnswers.delete('io');
    await assert.rejects(
      run([
        'tlds',
        'refresh',
        '--out',
        out,
        '--list-url',
        `${httpUrl}/TLD/tlds-alpha-by-domain.txt`,
        '--root-db-url',
        `${httpUrl}/domains/root/db`,
        '--whois-server',
        `127.0.0.1:${whoisPort}`,
      ]),
      /IANA WHOIS answer: no "domain:" line/,
    );
    assert.equal(readFileSync(out, 'utf8'), before);
  });
});
