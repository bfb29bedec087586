import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRootDbIndex, parseRootDbPageWhois } from '../src/tlds/iana-root-db.ts';
import {
  loadExtraRdapServers,
  loadReservedNameData,
  loadRootZone,
  parseIanaWhoisAnswer,
  parseTldList,
  readExtraRdapServers,
  readReservedNameData,
  readRootZone,
} from '../src/tlds/tld-data.ts';
import { readReal } from './real-corpus.ts';

/**
 * The built-in TLD tables (src/tlds/data) against the real IANA and ICANN copies they were built
 * from (fixtures/real/iana, origins in its SOURCES.md). Expected values are read off those files
 * by hand.
 */

const MOST_CHECKED = (
  'com net org io co ai app dev me info biz xyz online site store tech shop club live pro ' +
  'us uk de ca au fr nl eu ch es it in br jp ru cn se no dk fi ' +
  'pl be at nz tv cc gg ly to sh ac so agency studio design cloud space world top life'
).split(' ');

const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

function tldsInBootstrap(json: unknown): Set<string> {
  const file = json as { services?: [string[], string[]][]; dns?: { services: [string[], string[]][] } };
  const services = file.dns?.services ?? file.services ?? [];
  return new Set(services.flatMap(([tlds]) => tlds.map((tld) => tld.toLowerCase())));
}

describe('parseTldList on IANA\u2019s list (2026-07-24)', () => {
  const list = parseTldList(readReal('iana/tlds-alpha-by-domain.txt'));

  it('reads the version line and every TLD, in lower case', () => {
    assert.equal(list.version, '2026072401');
    assert.equal(list.lastUpdated, '2026-07-24T18:55:10Z');
    assert.equal(list.tlds.length, 1438);
    assert.deepEqual(list.tlds.slice(0, 2), ['aaa', 'aarp']);
    assert.deepEqual(list.tlds.slice(-2), ['zuerich', 'zw']);
    assert.equal(list.tlds[135 - 1], 'biz');
    assert.ok(list.tlds.includes('xn--p1ai'));
  });

  it('refuses a file that is not IANA\u2019s list', () => {
    assert.throws(() => parseTldList('AAA\nAARP\n'), /first line/);
    assert.throws(
      () => parseTldList('# Version 2026072401, Last Updated Fri Jul 24 18:55:10 2026 UTC\nAAA\n<html>\n'),
      /line 3/,
    );
  });
});

describe('parseIanaWhoisAnswer on real whois.iana.org answers', () => {
  it('reads the COM object of a whois client\u2019s output and stops at IANA\u2019s source line', () => {
    assert.deepEqual(parseIanaWhoisAnswer(readReal('iana/whois-client-iceagesaga.com.txt')), {
      tld: 'com',
      whois: 'whois.verisign-grs.com',
      organisation: 'VeriSign Global Registry Services',
      status: 'ACTIVE',
      created: '1985-01-01',
      changed: '2017-10-05',
    });
  });

  it('reads RU, EU and LI', () => {
    const ru = parseIanaWhoisAnswer(readReal('iana/whois-client-botva.ru.txt'));
    assert.deepEqual(
      [ru.tld, ru.whois, ru.organisation, ru.created, ru.changed],
      ['ru', 'whois.tcinet.ru', 'Coordination Center for TLD RU', '1994-04-07', '2021-05-26'],
    );
    const eu = parseIanaWhoisAnswer(readReal('iana/whois-client-botva.eu.txt'));
    assert.deepEqual(
      [eu.tld, eu.whois, eu.organisation, eu.changed],
      ['eu', 'whois.eu', 'EURid vzw/asbl', '2020-01-15'],
    );
    const li = parseIanaWhoisAnswer(readReal('iana/whois-client-destiny.li.txt'));
    assert.deepEqual(
      [li.tld, li.whois, li.organisation, li.changed],
      ['li', 'whois.nic.li', 'SWITCH The Swiss Education & Research Network', '2021-03-31'],
    );
  });

  it('gives whois null for a TLD IANA names no server for (EH, not assigned)', () => {
    assert.deepEqual(parseIanaWhoisAnswer(readReal('iana/whois-iana-eh-not-assigned.txt')), {
      tld: 'eh',
      whois: null,
      organisation: 'Not assigned',
      status: null,
      created: null,
      changed: '1999-09-27',
    });
  });

  it('reads IANA\u2019s own answers for IO, XN--P1AI (domain written in Unicode) and APP', () => {
    assert.deepEqual(parseIanaWhoisAnswer(readReal('iana/ianawhois-IO.txt')), {
      tld: 'io',
      whois: 'whois.nic.io',
      organisation: 'Internet Computer Bureau Limited',
      status: 'ACTIVE',
      created: '1997-09-16',
      changed: '2023-01-18',
    });
    const rf = parseIanaWhoisAnswer(readReal('iana/ianawhois-XN--P1AI.txt'));
    assert.deepEqual(
      [rf.tld, rf.whois, rf.organisation, rf.created, rf.changed],
      ['xn--p1ai', 'whois.tcinet.ru', 'Coordination Center for TLD RU', '2010-05-12', '2024-01-17'],
    );
    const app = parseIanaWhoisAnswer(readReal('iana/ianawhois-APP.txt'));
    assert.deepEqual(
      [app.tld, app.whois, app.organisation, app.changed],
      ['app', 'whois.nic.google', 'Charleston Road Registry Inc.', '2020-04-20'],
    );
  });

  it('refuses an answer without a domain line', () => {
    assert.throws(() => parseIanaWhoisAnswer('% IANA WHOIS server\n\n% This query returned 0 objects.\n'), /domain/);
  });
});

describe('the root-zone table (data/root-zone.json)', () => {
  const zone = loadRootZone();

  it('lists every TLD of IANA\u2019s list copied in the fixtures, and nothing else', () => {
    assert.ok(zone.entries.length >= 1400, `${zone.entries.length} TLDs`);
    const list = parseTldList(readReal('iana/tlds-alpha-by-domain.txt'));
    assert.deepEqual(
      zone.entries.map((entry) => entry.tld),
      list.tlds,
    );
    assert.equal(zone.published.version, list.version);
  });

  it('has a type for each of the 60 TLDs customers check most', () => {
    for (const tld of MOST_CHECKED) assert.ok(zone.byTld.get(tld)?.type, `.${tld} has no type`);
    assert.equal(zone.byTld.get('com')?.type, 'generic');
    assert.equal(zone.byTld.get('biz')?.type, 'generic-restricted');
    assert.equal(zone.byTld.get('io')?.type, 'country-code');
    assert.equal(zone.byTld.get('arpa')?.type, 'infrastructure');
    assert.equal(zone.byTld.get('aero')?.type, 'sponsored');
    assert.equal(zone.byTld.get('xn--p1ai')?.type, 'country-code');
  });

  it('takes every type from IANA\u2019s root-zone database index', () => {
    const types = parseRootDbIndex(readReal('iana/root-db.html'));
    for (const entry of zone.entries) assert.equal(entry.type, types.get(entry.tld), `.${entry.tld}`);
  });

  it('takes the WHOIS server from each TLD\u2019s IANA page (the 60 copied)', () => {
    const pages = readdirSync(path.join(import.meta.dirname, 'fixtures/real/iana/tld-pages'));
    assert.equal(pages.length, 60);
    for (const page of pages) {
      const tld = page.replace(/\.html$/, '');
      assert.equal(zone.byTld.get(tld)?.whois, parseRootDbPageWhois(readReal(`iana/tld-pages/${page}`)), `.${tld}`);
    }
    assert.equal(zone.byTld.get('io')?.whois, 'whois.nic.io');
    assert.equal(zone.byTld.get('de')?.whois, 'whois.denic.de');
    assert.equal(zone.byTld.get('cc')?.whois, 'ccwhois.verisign-grs.com');
    assert.equal(zone.byTld.get('uk')?.whois, null);
  });

  it('names only syntactically valid WHOIS hosts', () => {
    const hosts = zone.entries.flatMap((entry) => (entry.whois ? [entry.whois] : []));
    assert.ok(hosts.length > 800);
    for (const host of hosts) {
      assert.match(host, HOST_NAME);
      assert.equal(new URL(`whois://${host}`).hostname, host);
    }
  });

  it('is read once', () => {
    assert.equal(loadRootZone(), zone);
  });
});

describe('the extra RDAP servers (data/rdap-extra-servers.json)', () => {
  const extra = loadExtraRdapServers();
  const ianaCopy = JSON.parse(readReal('iana/dns.json')) as { publication: string };

  it('holds no TLD of the IANA dns.json it was compared with, nor of any older copy', () => {
    assert.ok(extra.comparedWith.includes(ianaCopy.publication));
    const bootstrapDir = path.join(import.meta.dirname, 'fixtures/real/bootstrap');
    const copies = [ianaCopy, ...readdirSync(bootstrapDir).map((f) => JSON.parse(readReal(`bootstrap/${f}`)))];
    for (const copy of copies) {
      const listed = tldsInBootstrap(copy);
      for (const tld of extra.entries.keys()) assert.ok(!listed.has(tld), `.${tld} is in IANA's file`);
    }
  });

  it('gives https base URLs ending in /', () => {
    assert.ok(extra.entries.size >= 10);
    for (const [tld, entry] of extra.entries) {
      for (const url of entry.urls) {
        assert.equal(new URL(url).protocol, 'https:', `.${tld} ${url}`);
        assert.ok(url.endsWith('/'), `.${tld} ${url}`);
      }
    }
    assert.deepEqual(extra.servers.de, ['https://rdap.denic.de/']);
    assert.deepEqual(extra.servers.dk, ['https://rdap.dk-hostmaster.dk/']);
  });

  it('copies the servers case/iana-data records as that project lists them', () => {
    const supplemental = JSON.parse(readReal('iana/iana-data-supplemental-cctld-rdap.json')) as {
      ccTldRdapServers: { tld: string; rdapServer: string }[];
    };
    for (const { tld, rdapServer } of supplemental.ccTldRdapServers) {
      assert.deepEqual(extra.servers[tld], [rdapServer], `.${tld}`);
    }
    assert.deepEqual(extra.servers.io, ['https://rdap.identitydigital.services/rdap/']);
  });
});

describe('the reserved names (data/reserved-names.json)', () => {
  const reserved = loadReservedNameData();

  it('holds exactly the labels of Specification 5 sections 1 and 3.1', () => {
    assert.deepEqual([...reserved.gtldLabels].sort(), ['example', 'nic', 'rdds', 'whois', 'www']);
    const compiled = ['S5.1', 'S5.3.1'].flatMap((section) =>
      readReal(`iana/spec5-reserved-names-${section}.ALabel.txt`).trim().split('\n'),
    );
    assert.deepEqual([...reserved.gtldLabels].sort(), compiled.sort());
  });

  it('reserves no two-character label (ICANN authorised their release)', () => {
    for (const label of reserved.gtldLabels) assert.ok(label.length > 2, label);
    for (const list of reserved.registryLists.values()) for (const label of list.labels) assert.ok(label.length > 2);
  });
});

describe('a malformed data file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tld-data-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, json: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
    return file;
  };
  const real = (name: string) =>
    JSON.parse(readFileSync(new URL(`../src/tlds/data/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

  it('is refused with the file named', () => {
    const zone = real('root-zone.json');
    const badType = write('root-zone.json', {
      ...zone,
      tlds: [{ tld: 'io', type: 'ccTLD', whois: 'whois.nic.io' }],
    });
    assert.throws(
      () => readRootZone(badType),
      (err: Error) => err.message.startsWith(badType) && /type/.test(err.message),
    );
    const badHost = write('bad-host.json', {
      ...zone,
      tlds: [{ tld: 'io', type: 'country-code', whois: 'whois nic' }],
    });
    assert.throws(
      () => readRootZone(badHost),
      (err: Error) => err.message.startsWith(badHost),
    );
    const notJson = write('not-json.json', '{"tlds": [');
    assert.throws(
      () => readRootZone(notJson),
      (err: Error) => err.message.startsWith(notJson),
    );
  });

  it('refuses an extra RDAP server over http or without the final /', () => {
    const extra = real('rdap-extra-servers.json');
    const entry = { operator: 'X', source: 'X', recorded_in: 'X', date: '2026-01-01' };
    for (const url of ['http://rdap.example/', 'https://rdap.example']) {
      const file = write('rdap-extra-servers.json', { ...extra, entries: { xx: { ...entry, urls: [url] } } });
      assert.throws(
        () => readExtraRdapServers(file),
        (err: Error) => err.message.startsWith(file) && /https URL ending in \//.test(err.message),
      );
    }
  });

  it('refuses a reserved-names group without a section', () => {
    const file = write('reserved-names.json', {
      ...real('reserved-names.json'),
      groups: [{ labels: ['nic'], applies_to: 'gtld' }],
    });
    assert.throws(
      () => readReservedNameData(file),
      (err: Error) => err.message.startsWith(file) && /section/.test(err.message),
    );
  });
});
