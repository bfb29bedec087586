import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readWhoisAnswer, type WhoisAnswerReading } from '../src/whois/answer.ts';
import { WHOIS_ANSWERS_FILE } from '../src/whois/server-profiles.ts';
import {
  WHOIS_CASES as CASES,
  type WhoisExpected as Expected,
  WHOIS_CORPUS,
  whoisAnswer,
  whoisCorpusFiles,
  whoisFilesWithSources,
} from './whois-corpus.ts';

const serverOf = (file: string) => file.slice(0, file.indexOf('/'));

function kindOf(reading: WhoisAnswerReading): Expected | 'referral' | 'no_pattern_table' {
  return reading.kind === 'unknown' ? reading.reason : reading.kind;
}

interface TableEntry {
  source: string[];
  not_found: string[];
  rate_limited: string[];
  reserved?: string[];
  aliases?: { host: string; source: string }[];
}
const table = JSON.parse(readFileSync(WHOIS_ANSWERS_FILE, 'utf8')) as {
  source: string[];
  retrieved: string;
  servers: Record<string, TableEntry>;
};
const servers = Object.keys(table.servers);
const aliases = Object.values(table.servers).flatMap((entry) => (entry.aliases ?? []).map((alias) => alias.host));
const answers = new Map(CASES.map(([file]) => [file, whoisAnswer(file)]));
/** The patterns are matched as the reader matches them: CRLF read as LF (Nominet ends its lines with CRLF). */
const asRead = (file: string) => (answers.get(file) ?? '').replace(/\r\n?/g, '\n');
const notFree = CASES.filter(([, , expected]) => expected !== 'not_found');

describe('the real WHOIS corpus', () => {
  it('lists every file in SOURCES.md and reads every file here', () => {
    const files = whoisCorpusFiles();
    const listed = whoisFilesWithSources();
    assert.deepEqual(
      files.filter((file) => !listed.has(file)),
      [],
    );
    assert.deepEqual(files, CASES.map(([file]) => file).sort());
  });

  it('holds answers of at least 15 registries, each with a free name or a registered one', () => {
    const withFree = new Set(CASES.filter(([, , kind]) => kind === 'not_found').map(([file]) => serverOf(file)));
    const withRecord = new Set(CASES.filter(([, , kind]) => kind === 'registered').map(([file]) => serverOf(file)));
    assert.ok(withFree.size >= 15 && withRecord.size >= 15, `${withFree.size} / ${withRecord.size}`);
  });
});

describe('the pattern table (data/whois-answers.json)', () => {
  it('names its sources and date, and every source file of every server exists', () => {
    assert.ok(table.source.length > 0 && /^\d{4}-\d{2}-\d{2}$/.test(table.retrieved));
    for (const [server, entry] of Object.entries(table.servers)) {
      assert.ok(entry.source.length > 0, server);
      for (const source of entry.source) {
        assert.ok(existsSync(`${WHOIS_CORPUS}${source.replace('test/fixtures/real/whois/', '')}`), source);
        assert.ok(source.startsWith(`test/fixtures/real/whois/${server}/`), `${server}: ${source}`);
      }
    }
  });

  it("a renamed server (an alias, with the source of the renaming) reads its recorded answers as the server's own", () => {
    const aliased = Object.entries(table.servers).filter(([, entry]) => entry.aliases?.length);
    assert.ok(aliased.length > 0);
    for (const [server, entry] of aliased) {
      for (const alias of entry.aliases ?? []) {
        assert.ok(/^https:\/\/github\.com\//.test(alias.source), alias.host);
        for (const [file, name, expected] of CASES.filter(([file]) => serverOf(file) === server)) {
          const reading = readWhoisAnswer({ server: alias.host, name, text: answers.get(file) ?? '' });
          assert.equal(kindOf(reading), expected, `${file} as ${alias.host}`);
        }
      }
    }
  });

  it("matches each server's own free-name and throttling answers", () => {
    for (const [file, , expected] of CASES) {
      const entry = table.servers[serverOf(file)];
      const text = asRead(file);
      if (expected === 'not_found')
        assert.ok(
          entry?.not_found.some((p) => new RegExp(p, 'm').test(text)),
          file,
        );
      if (expected === 'rate_limited')
        assert.ok(
          entry?.rate_limited.some((p) => new RegExp(p, 'm').test(text)),
          file,
        );
    }
  });

  it('no not-found pattern of any server matches a registered, reserved, throttling or error answer of any server', () => {
    // AFNIC's throttling text ends with its own not-found line: the reader checks throttling first.
    const known = new Set(['whois.nic.fr ~ whois.nic.fr/weppos-fr-response_throttled.txt']);
    const matches: string[] = [];
    for (const [file] of notFree) {
      for (const [server, entry] of Object.entries(table.servers)) {
        if (known.has(`${server} ~ ${file}`)) continue;
        for (const pattern of entry.not_found) {
          if (new RegExp(pattern, 'm').test(asRead(file))) matches.push(`${server} ${pattern} ~ ${file}`);
        }
      }
    }
    assert.deepEqual(matches, []);
  });

  it('no not-found pattern matches the rest of a free-name answer (its disclaimer, notices, headers)', () => {
    const matches: string[] = [];
    for (const [file, , expected] of CASES) {
      if (expected !== 'not_found') continue;
      const own = table.servers[serverOf(file)]?.not_found.map((pattern) => new RegExp(pattern, 'gm')) ?? [];
      const rest = own.reduce((text, pattern) => text.replace(pattern, ''), asRead(file));
      for (const [server, entry] of Object.entries(table.servers)) {
        for (const pattern of entry.not_found) {
          if (new RegExp(pattern, 'm').test(rest)) matches.push(`${server} ${pattern} ~ rest of ${file}`);
        }
      }
    }
    assert.deepEqual(matches, []);
  });
});

describe('reading the real answers', () => {
  for (const [file, name, expected] of CASES) {
    it(`${file} (${name}) → ${expected}`, () => {
      const reading = readWhoisAnswer({ server: serverOf(file), name, text: answers.get(file) ?? '' });
      assert.equal(kindOf(reading), expected, JSON.stringify(reading).slice(0, 300));
    });
  }

  it('0 false not_found: no answer that is not a free name reads not_found, whichever server it is read as', () => {
    const falseFree: string[] = [];
    for (const [file, name] of notFree) {
      for (const server of [...servers, ...aliases, 'whois.example.net']) {
        const reading = readWhoisAnswer({ server, name, text: answers.get(file) ?? '' });
        if (reading.kind === 'not_found') falseFree.push(`${file} read as ${server}`);
      }
    }
    assert.deepEqual(falseFree, []);
  });

  it("a free-name answer read as a server it is not from is never not_found unless that server's text is the same", () => {
    for (const [file, name, expected] of CASES) {
      if (expected !== 'not_found') continue;
      const reading = readWhoisAnswer({ server: 'whois.example.net', name, text: answers.get(file) ?? '' });
      assert.equal(kindOf(reading), 'no_pattern_table', file);
    }
  });

  it("a free-name answer naming another name is not that name's answer", () => {
    const verisign = answers.get('whois.verisign-grs.com/likexian-com-notfound.txt') ?? '';
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.verisign-grs.com', name: 'example.com', text: verisign })),
      'unrecognized_answer',
    );
    const sidn = answers.get('whois.domain-registry.nl/weppos-nl-status_available.txt') ?? '';
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.domain-registry.nl', name: 'google.nl', text: sidn })),
      'unrecognized_answer',
    );
    const denic = answers.get('whois.denic.de/weppos-de-status_available.txt') ?? '';
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.denic.de', name: 'google.de', text: denic })),
      'unrecognized_answer',
    );
  });

  it('a registered answer asked for another name is not read as that name', () => {
    const text = answers.get('whois.verisign-grs.com/weppos-com-status_registered.txt') ?? '';
    const reading = readWhoisAnswer({ server: 'whois.verisign-grs.com', name: 'example.com', text });
    assert.equal(kindOf(reading), 'unrecognized_answer');
  });

  it('a server without a pattern table: a plain record reads registered, anything else no_pattern_table', () => {
    const record = answers.get('whois.nic.io/weppos-io-status_registered.txt') ?? '';
    const registered = readWhoisAnswer({ server: 'whois.example.net', name: 'redis.io', text: record });
    assert.equal(kindOf(registered), 'registered');
    const free = answers.get('whois.nic.io/weppos-io-status_available.txt') ?? '';
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.example.net', name: 'u34jedzcq.io', text: free })),
      'no_pattern_table',
    );
  });
});

describe('hostile answers', () => {
  const orgRecord = () => answers.get('whois.pir.org/weppos-org-status_registered.txt') ?? '';

  it('a not-found line inside a registered record is not a free name', () => {
    const lines = orgRecord().split('\n');
    const text = [...lines.slice(0, 5), 'NOT FOUND', ...lines.slice(5)].join('\n');
    const reading = readWhoisAnswer({ server: 'whois.pir.org', name: 'google.org', text });
    assert.equal(kindOf(reading), 'unrecognized_answer');
  });

  it('an answer holding only the disclaimer is unrecognized', () => {
    const free = answers.get('whois.nic.io/weppos-io-status_available.txt') ?? '';
    const disclaimer = free
      .split('\n')
      .filter((line) => !/^NOT FOUND/.test(line))
      .join('\n');
    assert.notEqual(disclaimer.trim(), '');
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.nic.io', name: 'u34jedzcq.io', text: disclaimer })),
      'unrecognized_answer',
    );
  });

  it('a referral to another server, with no record of the name, is a referral', () => {
    const text = 'refer:        whois.nic.io\n\ndomain:       IO\n\norganisation: Internet Computer Bureau Limited\n';
    assert.equal(kindOf(readWhoisAnswer({ server: 'whois.iana.org', name: 'x.io', text })), 'referral');
    const registrarOnly = 'Registrar WHOIS Server: whois.markmonitor.com\n';
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.verisign-grs.com', name: 'x.com', text: registrarOnly })),
      'referral',
    );
  });

  it('blank answers of any kind are empty_answer', () => {
    for (const text of ['', '\r\n', ' \t\n\n  ']) {
      assert.equal(kindOf(readWhoisAnswer({ server: 'whois.nic.uk', name: 'x.uk', text })), 'empty_answer');
    }
  });

  it('1 MB answers: garbage is unrecognized, a padded record is still the record, blank runs do not stall the patterns', () => {
    const garbage = 'x'.repeat(80).concat('\n').repeat(13_000);
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.nic.uk', name: 'x.uk', text: garbage })),
      'unrecognized_answer',
    );
    const padded = `${orgRecord()}\n${'Remarks: more text\n'.repeat(55_000)}`;
    assert.equal(kindOf(readWhoisAnswer({ server: 'whois.pir.org', name: 'google.org', text: padded })), 'registered');
    // Nominet's pattern spans lines: a million blanks after its first line must not make it backtrack for long.
    const blanks = `    No match for "x.uk".\n${' \n'.repeat(500_000)}`;
    assert.equal(
      kindOf(readWhoisAnswer({ server: 'whois.nic.uk', name: 'x.uk', text: blanks })),
      'unrecognized_answer',
    );
  });

  it('binary garbage is never a free name', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 4096 }), fc.constantFrom(...servers), (bytes, server) => {
        const text = Buffer.from(bytes).toString('latin1');
        assert.notEqual(readWhoisAnswer({ server, name: 'x.com', text }).kind, 'not_found');
      }),
      { numRuns: 300 },
    );
  });

  it("property: a text holding none of a server's not-found patterns never reads not_found", () => {
    const line = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom(
        'Domain Name: x.com',
        'Status: free',
        'Domain Status: Available',
        'No match',
        'NOT FOUND.',
        'not found',
        '% No entries found',
        'Registrar: Example',
        'Name Server: ns1.example.net',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom(...servers), (lines, server) => {
        const text = lines.join('\n');
        const patterns = table.servers[server]?.not_found ?? [];
        fc.pre(!patterns.some((pattern) => new RegExp(pattern, 'm').test(text)));
        assert.notEqual(readWhoisAnswer({ server, name: 'x.com', text }).kind, 'not_found');
      }),
      { numRuns: 500 },
    );
  });
});
