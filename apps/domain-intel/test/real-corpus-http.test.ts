import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { databaseTargets, tempDir, testTimeout, testTimeoutEnv } from '@repo/server-kit/testing';
import type { ParsedDomain } from '../src/rdap/parse.ts';
import { bearer, createTestApp } from './helpers.ts';
import { EXPECTED, rdapAnswers, readReal, realFiles } from './real-corpus.ts';
import { type ReplayedAnswer, ReplayServer, readCassette } from './replay-server.ts';

/**
 * Every corpus answer through /v1/whois and /v1/check, served by a loopback server that a
 * bootstrap file points at, with the service in a process whose time zone is not UTC: dates
 * must not move, nothing may crash, and nothing but an RDAP server's own 404 may be `available`.
 */
const TOKYO = 'Asia/Tokyo';

if (process.env.TZ !== TOKYO) {
  it(`runs the corpus through the API in a child process under TZ=${TOKYO}`, () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        path.join(import.meta.dirname, 'support', 'offline-dns.mjs'),
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        import.meta.filename,
      ],
      // Without NODE_TEST_CONTEXT: the child is a test run of its own, with its own exit code.
      {
        env: { ...process.env, TZ: TOKYO, NODE_TEST_CONTEXT: undefined },
        encoding: 'utf8',
        timeout: testTimeout(600_000),
      },
    );
    process.stdout.write(child.stdout);
    assert.equal(child.status, 0, child.stderr || child.stdout.slice(-4000));
  });
} else {
  interface Served {
    /** The corpus answer (RdapAnswer.id, or the file of a recorded exchange). */
    file: string;
    name: string;
    answer: ReplayedAnswer;
    /** What /v1/check must say; `invalid`: the name is refused before anything is asked (400). */
    check: 'registered' | 'available' | 'unknown' | 'invalid';
  }

  const rdapJson = (body: string | Buffer, status = 200): ReplayedAnswer => ({
    status,
    headers: { 'content-type': 'application/rdap+json' },
    body,
  });

  /** Every corpus answer as the server sent it, under the name it is about. */
  function servedCorpus(): Served[] {
    const served: Served[] = [];
    for (const { id, text, body, recorded } of rdapAnswers()) {
      if (body.objectClassName === 'domain') {
        const name = String(body.ldhName).toLowerCase().replace(/\.$/, '');
        // A reverse-DNS domain (RIPE's 6.0.193.in-addr.arpa) is no name anyone registers: refused.
        const check = name.endsWith('.arpa') ? 'invalid' : 'registered';
        served.push({ file: id, name, answer: recorded ?? rdapJson(text), check });
      } else {
        // An RDAP error body, sent with its own errorCode as the status: only a 404 one means "not registered".
        const status = Number(body.errorCode);
        const name = `corpus-${path.basename(id, '.json').replace(/\W/g, '-')}.com`;
        served.push({
          file: id,
          name,
          answer: rdapJson(text, status),
          check: status === 404 ? 'available' : 'unknown',
        });
      }
    }
    // The cassettes that end in a domain answer are corpus answers above; the rest end in a 404.
    const answered = new Set(served.map((entry) => entry.file));
    for (const file of realFiles('exchanges').filter((f) => f.includes('jarthod') && !answered.has(f))) {
      const registry = readCassette(readReal(file)).at(-1)!;
      const name = new URL(registry.uri).pathname.split('/').at(-1)!.toLowerCase();
      const check = registry.answer.status === 404 ? 'available' : 'registered';
      served.push({ file, name, answer: registry.answer, check });
    }
    const synthetic = path.join(import.meta.dirname, 'fixtures', 'synthetic', 'not-rdap-404');
    for (const [file, type] of [
      ['cdn-nosuchkey.xml', 'application/xml'],
      ['gateway-message.json', 'application/json'],
      ['plain.txt', 'text/plain'],
      ['page.html', undefined],
    ] as const) {
      served.push({
        file: `synthetic/not-rdap-404/${file}`,
        name: `not-rdap-${file.replace(/\W/g, '-')}.com`,
        answer: {
          status: 404,
          headers: type ? { 'content-type': type } : {},
          body: readFileSync(path.join(synthetic, file)),
        },
        check: 'unknown',
      });
    }
    return served;
  }

  /** Rounds in which every name is served once (some names, e.g. google.com, come from several servers). */
  function rounds(served: Served[]): Served[][] {
    const result: Served[][] = [];
    for (const entry of served) {
      const round = result.find((r) => !r.some((other) => other.name === entry.name));
      if (round) round.push(entry);
      else result.push([entry]);
    }
    return result;
  }

  const [target] = databaseTargets();

  describe(`the real corpus through /v1/whois and /v1/check (TZ=${TOKYO})`, () => {
    it('runs in a time zone that is not UTC', () => {
      assert.equal(new Date(2020, 0, 1).getTimezoneOffset(), -540);
    });

    const served = servedCorpus();
    for (const [index, round] of rounds(served).entries()) {
      it(`round ${index + 1}: ${round.length} answers`, async () => {
        const server = await new ReplayServer().start();
        const dir = tempDir('corpus-bootstrap');
        const tlds = [...new Set(round.map((entry) => entry.name.slice(entry.name.indexOf('.') + 1)))];
        const bootstrap = path.join(dir.dir, 'dns.json');
        writeFileSync(bootstrap, JSON.stringify({ version: '1.0', services: [[tlds, [`${server.url}/r/`]]] }));
        for (const entry of round) server.answer(`/r/domain/${entry.name}`, entry.answer);
        const t = await createTestApp({
          target: target!,
          env: {
            RDAP_BOOTSTRAP_URL: bootstrap,
            RDAP_ALLOW_INSECURE: '1',
            RDAP_BREAKER_MIN_REQUESTS: '10000',
            RDAP_REQUEST_TIMEOUT_MS: testTimeoutEnv(5_000),
            // At most the setting's maximum (300 s), reached from a factor of 15.
            RDAP_LOOKUP_BUDGET_MS: String(Math.min(testTimeout(20_000), 300_000)),
          },
        });
        try {
          const key = await t.keyFor('enterprise');
          for (const entry of round) {
            if (entry.check === 'invalid') {
              const refused = await t.app.inject({ url: `/v1/check?domain=${entry.name}`, headers: bearer(key) });
              assert.equal(refused.statusCode, 400, `${entry.file}: ${refused.body}`);
              const whois = await t.app.inject({ url: `/v1/whois/${entry.name}`, headers: bearer(key) });
              assert.equal(whois.statusCode, 400, `${entry.file}: ${whois.body}`);
              continue;
            }
            const check = await t.app.inject({ url: `/v1/check?domain=${entry.name}`, headers: bearer(key) });
            assert.equal(check.statusCode, 200, `${entry.file}: ${check.body}`);
            assert.equal(check.json().data[0].status, entry.check, `${entry.file}: ${check.body}`);
            const whois = await t.app.inject({ url: `/v1/whois/${entry.name}`, headers: bearer(key) });
            const expectedStatus = { registered: 200, available: 404, unknown: 503 }[entry.check];
            assert.equal(whois.statusCode, expectedStatus, `${entry.file}: ${whois.body.slice(0, 500)}`);
            const expected = EXPECTED[entry.file];
            if (expected) expected.expect(whois.json().data as ParsedDomain);
          }
        } finally {
          await t.close();
          await server.close();
          dir.remove();
        }
      });
    }

    it('checks every answer of the hand-read table', () => {
      const files = new Set(served.map((entry) => entry.file));
      assert.deepEqual(
        Object.keys(EXPECTED).filter((file) => !files.has(file)),
        [],
      );
    });
  });
}
