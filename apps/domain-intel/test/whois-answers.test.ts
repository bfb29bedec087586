import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readWhoisAnswer, type WhoisAnswerReading } from '../src/whois/answer.ts';
import { WHOIS_ANSWERS_FILE } from '../src/whois/server-profiles.ts';
import { WHOIS_CORPUS, whoisAnswer, whoisCorpusFiles, whoisFilesWithSources } from './whois-corpus.ts';

type Expected = 'registered' | 'not_found' | 'reserved' | 'rate_limited' | 'unrecognized_answer' | 'empty_answer';

/**
 * Every recorded answer, the name it was asked about (read off the file where it names one; the
 * recording repository's test name where it does not: weppos asks `u34jedzcq.<tld>` for free
 * names), and what it says, read by hand.
 */
const CASES: [file: string, name: string, expected: Expected][] = [
  ['ccwhois.verisign-grs.com/likexian-cc-notfound.txt', 'likexian-have-no-money-to-register.cc', 'not_found'],
  ['ccwhois.verisign-grs.com/weppos-cc-status_available.txt', 'u34jedzcq.cc', 'not_found'],
  ['ccwhois.verisign-grs.com/weppos-cc-status_registered.txt', 'google.cc', 'registered'],
  ['tvwhois.verisign-grs.com/likexian-tv-notfound.txt', 'likexian-have-no-money-to-register.tv', 'not_found'],
  ['tvwhois.verisign-grs.com/weppos-tv-status_available.txt', 'u34jedzcq.tv', 'not_found'],
  ['tvwhois.verisign-grs.com/weppos-tv-status_registered.txt', 'google.tv', 'registered'],
  ['whois.afilias.net/likexian-info-notfound.txt', 'likexian-have-no-money-to-register.info', 'not_found'],
  ['whois.afilias.net/weppos-info-status_available.txt', 'u34jedzcq.info', 'not_found'],
  ['whois.afilias.net/weppos-info-status_registered.txt', 'google.info', 'registered'],
  ['whois.afilias.net/weppos-info-status_reserved.txt', 'example.info', 'reserved'],
  ['whois.afilias.net/weppos-pro-status_available.txt', 'u34jedzcq.pro', 'not_found'],
  ['whois.afilias.net/weppos-pro-status_registered.txt', 'google.pro', 'registered'],
  ['whois.afilias.net/weppos-pro-status_reserved.txt', 'example.pro', 'reserved'],
  ['whois.auda.org.au/likexian-au-notfound.txt', 'likexian-have-no-money-to-register.au', 'not_found'],
  ['whois.audns.net.au/weppos-au-status_available.txt', 'u34jedzcq.com.au', 'not_found'],
  ['whois.audns.net.au/weppos-au-status_registered.txt', 'google.com.au', 'registered'],
  ['whois.biz/weppos-biz-status_available.txt', 'u34jedzcq.biz', 'not_found'],
  ['whois.biz/weppos-biz-status_registered.txt', 'google.biz', 'registered'],
  ['whois.cira.ca/likexian-ca-notfound.txt', 'likexian-have-no-money-to-register.ca', 'not_found'],
  ['whois.cira.ca/weppos-ca-status_available.txt', 'u34jedzcq.ca', 'not_found'],
  // `Domain status: unavailable` with an error code: not free, not a record.
  ['whois.cira.ca/weppos-ca-status_invalid.txt', 'mediom.ca', 'unrecognized_answer'],
  ['whois.cira.ca/weppos-ca-status_registered.txt', 'google.ca', 'registered'],
  ['whois.cnnic.cn/likexian-cn-notfound.txt', 'likexian-have-no-money-to-register.cn', 'not_found'],
  ['whois.cnnic.cn/weppos-cn-status_available.txt', 'u34jedzcq.cn', 'not_found'],
  ['whois.cnnic.cn/weppos-cn-status_registered.txt', 'google.cn', 'registered'],
  ['whois.cnnic.cn/weppos-cn-status_reserved.txt', 'china.cn', 'reserved'],
  ['whois.denic.de/likexian-de-google.de.txt', 'google.de', 'registered'],
  ['whois.denic.de/likexian-de-notfound.txt', 'likexian-have-no-money-to-register.de', 'not_found'],
  ['whois.denic.de/weppos-de-response_error_55000000010.txt', 'xn--t-qfa.de', 'unrecognized_answer'],
  ['whois.denic.de/weppos-de-response_throttled.txt', 'google.de', 'rate_limited'],
  ['whois.denic.de/richardpenman-google.de.txt', 'google.de', 'registered'],
  ['whois.denic.de/weppos-de-status_available.txt', 'u34jedzcq.de', 'not_found'],
  ['whois.denic.de/weppos-de-status_failed.txt', 'msens.de', 'registered'],
  ['whois.denic.de/weppos-de-status_invalid.txt', 'googlededewdedewdewde.foo.de', 'unrecognized_answer'],
  ['whois.denic.de/weppos-de-status_registered.txt', 'google.de', 'registered'],
  ['whois.dk-hostmaster.dk/likexian-dk-notfound.txt', 'likexian-have-no-money-to-register.dk', 'not_found'],
  ['whois.dk-hostmaster.dk/weppos-dk-property_status_reserved.txt', 'googlle.dk', 'reserved'],
  ['whois.dk-hostmaster.dk/weppos-dk-response_throttled.txt', 'google.dk', 'rate_limited'],
  ['whois.dk-hostmaster.dk/weppos-dk-status_available.txt', 'u34jedzcq.dk', 'not_found'],
  ['whois.dk-hostmaster.dk/weppos-dk-status_registered.txt', 'google.dk', 'registered'],
  ['whois.dns.be/weppos-be-response_blocked.txt', 'example.be', 'rate_limited'],
  ['whois.dns.be/weppos-be-response_throttled_hourly.txt', 'test.be', 'rate_limited'],
  ['whois.dns.be/weppos-be-response_throttled_limit.txt', 'kine-vanmechelen.be', 'rate_limited'],
  ['whois.dns.be/weppos-be-status_available.txt', 'u34jedzcq.be', 'not_found'],
  ['whois.dns.be/weppos-be-status_invalid.txt', 'www.kimdemolenaer.be', 'unrecognized_answer'],
  ['whois.dns.be/weppos-be-status_registered.txt', 'google.be', 'registered'],
  ['whois.dns.pl/likexian-pl-notfound.txt', 'likexian-have-no-money-to-register.pl', 'not_found'],
  ['whois.dns.pl/richardpenman-allegro.pl.txt', 'allegro.pl', 'registered'],
  ['whois.dns.pl/weppos-pl-response_throttled.txt', 'google.pl', 'rate_limited'],
  ['whois.dns.pl/weppos-pl-status_available.txt', 'u34jedzcq.pl', 'not_found'],
  ['whois.dns.pl/weppos-pl-status_registered.txt', 'google.pl', 'registered'],
  ['whois.domain-registry.nl/likexian-nl-notfound.txt', 'likexian-have-no-money-to-register.nl', 'not_found'],
  ['whois.domain-registry.nl/richardpenman-app.nl.txt', 'app.nl', 'registered'],
  ['whois.domain-registry.nl/weppos-nl-response_throttled.txt', 'google.nl', 'rate_limited'],
  ['whois.domain-registry.nl/weppos-nl-response_throttled_daily.txt', 'google.nl', 'rate_limited'],
  // "Server too busy, try again later": read as throttling (come back later), never as free.
  ['whois.domain-registry.nl/weppos-nl-response_unavailable.txt', 'google.nl', 'rate_limited'],
  ['whois.domain-registry.nl/weppos-nl-status_available.txt', 'u34jedzcq.nl', 'not_found'],
  ['whois.domain-registry.nl/weppos-nl-status_registered.txt', 'google.nl', 'registered'],
  ['whois.eu/likexian-eu-notfound.txt', 'likexian-have-no-money-to-register.eu', 'not_found'],
  ['whois.eu/richardpenman-eurid.eu.txt', 'eurid.eu', 'registered'],
  ['whois.eu/weppos-eu-response_throttled.txt', 'google.eu', 'rate_limited'],
  ['whois.eu/weppos-eu-status_available.txt', 'u34jedzcq.eu', 'not_found'],
  ['whois.eu/weppos-eu-status_registered.txt', 'google.eu', 'registered'],
  ['whois.fi/likexian-fi-notfound.txt', 'likexian-have-no-money-to-register.fi', 'not_found'],
  ['whois.fi/richardpenman-druid.fi.txt', 'druid.fi', 'registered'],
  ['whois.fi/weppos-fi-status_available.txt', 'u34jedzcq.fi', 'not_found'],
  ['whois.fi/weppos-fi-status_registered.txt', 'google.fi', 'registered'],
  ['whois.fi/weppos-fi-status_reserved.txt', 'pi.fi', 'reserved'],
  ['whois.gg/weppos-gg-status_available.txt', 'u34jedzcq.gg', 'not_found'],
  ['whois.gg/weppos-gg-status_registered.txt', 'google.gg', 'registered'],
  ['whois.iis.se/likexian-se-notfound.txt', 'likexian-have-no-money-to-register.se', 'not_found'],
  ['whois.iis.se/weppos-se-status_available.txt', 'u34jedzcq.se', 'not_found'],
  ['whois.iis.se/weppos-se-status_registered.txt', 'google.se', 'registered'],
  ['whois.inregistry.net/weppos-in-status_available.txt', 'u34jedzcq.in', 'not_found'],
  ['whois.inregistry.net/weppos-in-status_registered.txt', 'google.in', 'registered'],
  // .nz's server since 2024 (no pattern table: no free-name answer recorded), read as a plain record.
  ['whois.irs.net.nz/richardpenman-yahoo.co.nz.txt', 'yahoo.co.nz', 'registered'],
  ['whois.jprs.jp/likexian-jp-notfound.txt', 'likexian-have-no-money-to-register.jp', 'not_found'],
  ['whois.jprs.jp/weppos-jp-status_available.txt', 'u34jedzcq.jp', 'not_found'],
  ['whois.jprs.jp/weppos-jp-status_registered.txt', 'google.jp', 'registered'],
  ['whois.jprs.jp/weppos-jp-status_reserved.txt', 'example.jp', 'reserved'],
  ['whois.jprs.jp/weppos-ne.jp-status_available.txt', 'u34jedzcq.ne.jp', 'not_found'],
  ['whois.jprs.jp/weppos-ne.jp-status_registered.txt', 'google.ne.jp', 'registered'],
  ['whois.jprs.jp/weppos-ne.jp-status_reserved.txt', 'ne.jp', 'reserved'],
  ['whois.nic.ac/likexian-ac-notfound.txt', 'likexian-have-no-money-to-register.ac', 'not_found'],
  ['whois.nic.ac/weppos-ac-status_available.txt', 'u34jedzcq.ac', 'not_found'],
  ['whois.nic.ac/weppos-ac-status_registered.txt', 'google.ac', 'registered'],
  ['whois.nic.ai/likexian-ai-notfound.txt', 'likexian-have-no-money-to-register.ai', 'not_found'],
  ['whois.nic.ai/richardpenman-google.ai.txt', 'google.ai', 'registered'],
  ['whois.nic.ai/weppos-ai-status_available.txt', 'u34jedzcq.ai', 'not_found'],
  ['whois.nic.ai/weppos-ai-status_registered.txt', 'google.ai', 'registered'],
  ['whois.nic.at/weppos-at-status_available.txt', 'u34jedzcq.at', 'not_found'],
  ['whois.nic.at/weppos-at-status_registered.txt', 'google.at', 'registered'],
  ['whois.nic.biz/likexian-biz-notfound.txt', 'likexian-have-no-money-to-register.biz', 'not_found'],
  ['whois.nic.ch/likexian-ch-notfound.txt', 'likexian-have-no-money-to-register.ch', 'not_found'],
  ['whois.nic.ch/weppos-ch-status_available.txt', 'u34jedzcq.ch', 'not_found'],
  ['whois.nic.ch/weppos-ch-status_registered.txt', 'google.ch', 'registered'],
  ['whois.nic.co/likexian-co-google.co.txt', 'google.co', 'registered'],
  ['whois.nic.co/likexian-co-notfound.txt', 'likexian-have-no-money-to-register.co', 'not_found'],
  ['whois.nic.co/weppos-co-status_available.txt', 'u34jedzcq.co', 'not_found'],
  ['whois.nic.co/weppos-co-status_registered.txt', 't.co', 'registered'],
  ['whois.nic.design/weppos-design-status_available.txt', 'u34jedzcq.design', 'not_found'],
  ['whois.nic.design/weppos-design-status_registered.txt', 'toplevel.design', 'registered'],
  ['whois.nic.es/weppos-es-status_available.txt', 'u34jedzcq.es', 'not_found'],
  ['whois.nic.es/weppos-es-status_registered.txt', 'google.es', 'registered'],
  ['whois.nic.fr/likexian-fr-notfound.txt', 'likexian-have-no-money-to-register.fr', 'not_found'],
  ['whois.nic.fr/richardpenman-google.fr.txt', 'google.fr', 'registered'],
  // "Too many requests..." followed by AFNIC's own "No entries found": throttled, not free.
  ['whois.nic.fr/weppos-fr-response_throttled.txt', 'google.fr', 'rate_limited'],
  ['whois.nic.fr/weppos-fr-status_available.txt', 'u34jedzcq.fr', 'not_found'],
  ['whois.nic.fr/weppos-fr-status_registered.txt', 'google.fr', 'registered'],
  ['whois.nic.io/likexian-io-notfound.txt', 'likexian-have-no-money-to-register.io', 'not_found'],
  ['whois.nic.io/weppos-io-status_available.txt', 'u34jedzcq.io', 'not_found'],
  ['whois.nic.io/weppos-io-status_registered.txt', 'redis.io', 'registered'],
  ['whois.nic.io/weppos-io-status_reserved.txt', 'example.io', 'reserved'],
  ['whois.nic.it/likexian-it-notfound.txt', 'likexian-have-no-money-to-register.it', 'not_found'],
  ['whois.nic.it/weppos-it-property_status_reserved.txt', 'comunediroccaromana.it', 'reserved'],
  ['whois.nic.it/weppos-it-response_unavailable.txt', 'google.it', 'unrecognized_answer'],
  ['whois.nic.it/weppos-it-status_available.txt', 'u34jedzcq.it', 'not_found'],
  ['whois.nic.it/weppos-it-status_registered.txt', 'google.it', 'registered'],
  ['whois.nic.ly/weppos-ly-status_available.txt', 'u34jedzcq.ly', 'not_found'],
  ['whois.nic.ly/weppos-ly-status_registered.txt', 'google.ly', 'registered'],
  ['whois.nic.me/likexian-me-google.me.txt', 'google.me', 'registered'],
  ['whois.nic.me/likexian-me-notfound.txt', 'likexian-have-no-money-to-register.me', 'not_found'],
  ['whois.nic.me/weppos-me-status_available.txt', 'u34jedzcq.me', 'not_found'],
  ['whois.nic.me/weppos-me-status_registered.txt', 'google.me', 'registered'],
  ['whois.nic.sh/likexian-sh-notfound.txt', 'likexian-have-no-money-to-register.sh', 'not_found'],
  ['whois.nic.sh/weppos-sh-status_available.txt', 'u34jedzcq.sh', 'not_found'],
  ['whois.nic.sh/weppos-sh-status_registered.txt', 'google.sh', 'registered'],
  ['whois.nic.so/weppos-so-status_available.txt', 'u34jedzcq.so', 'not_found'],
  ['whois.nic.so/weppos-so-status_registered.txt', 'google.so', 'registered'],
  ['whois.nic.space/weppos-space-status_available.txt', 'u34jedzcq.space', 'not_found'],
  ['whois.nic.space/weppos-space-status_registered.txt', 'nic.space', 'registered'],
  ['whois.nic.tech/weppos-tech-status_available.txt', 'u34jedzcq.tech', 'not_found'],
  ['whois.nic.tech/weppos-tech-status_registered.txt', 'google.tech', 'registered'],
  ['whois.nic.top/likexian-top-google.top.txt', 'google.top', 'registered'],
  ['whois.nic.top/likexian-top-notfound.txt', 'likexian-have-no-money-to-register.top', 'not_found'],
  ['whois.nic.uk/likexian-uk-google.uk.txt', 'google.uk', 'registered'],
  ['whois.nic.uk/likexian-uk-notfound.txt', 'likexian-have-no-money-to-register.uk', 'not_found'],
  ['whois.nic.uk/richardpenman-amazon.co.uk.txt', 'amazon.co.uk', 'registered'],
  ['whois.nic.uk/weppos-uk-response_throttled.txt', 'google.co.uk', 'rate_limited'],
  ['whois.nic.uk/weppos-uk-status_available.txt', 'u34jedzcq.co.uk', 'not_found'],
  ['whois.nic.uk/weppos-uk-status_invalid.txt', 'u34jedzcq.uk', 'unrecognized_answer'],
  // weppos files internet.co.uk as reserved; the answer is Nominet's own registration of it.
  ['whois.nic.uk/weppos-uk-status_reserved.txt', 'internet.co.uk', 'registered'],
  ['whois.nic.uk/weppos-uk-status_registered.txt', 'google.co.uk', 'registered'],
  ['whois.nic.us/likexian-us-notfound.txt', 'likexian-have-no-money-to-register.us', 'not_found'],
  ['whois.nic.us/weppos-us-status_available.txt', 'u34jedzcq.us', 'not_found'],
  ['whois.nic.us/weppos-us-status_registered.txt', 'google.us', 'registered'],
  ['whois.nic.xyz/likexian-xyz-notfound.txt', 'likexian-have-no-money-to-register.xyz', 'not_found'],
  ['whois.nic.xyz/weppos-xyz-status_available.txt', 'u34jedzcq.xyz', 'not_found'],
  ['whois.nic.xyz/weppos-xyz-status_registered.txt', 'abc.xyz', 'registered'],
  ['whois.norid.no/weppos-no-status_available.txt', 'u34jedzcq.no', 'not_found'],
  // Norid gives the name and its creation date, nameservers only as handles.
  ['whois.norid.no/weppos-no-status_registered.txt', 'google.no', 'registered'],
  ['whois.pir.org/likexian-org-notfound.txt', 'likexian-have-no-money-to-register.org', 'not_found'],
  ['whois.pir.org/weppos-org-response_throttled.txt', 'google.org', 'rate_limited'],
  ['whois.pir.org/weppos-org-status_available.txt', 'u34jedzcq.org', 'not_found'],
  ['whois.pir.org/weppos-org-status_registered.txt', 'google.org', 'registered'],
  ['whois.registro.br/likexian-br-notfound.txt', 'likexian-have-no-money-to-register.br', 'not_found'],
  ['whois.registro.br/weppos-br-status_available.txt', 'u34jedzcq.br', 'not_found'],
  ['whois.registro.br/weppos-br-status_registered.txt', 'google.com.br', 'registered'],
  ['whois.registry.in/likexian-in-notfound.txt', 'likexian-have-no-money-to-register.in', 'not_found'],
  ['whois.srs.net.nz/likexian-nz-notfound.txt', 'likexian-have-no-money-to-register.nz', 'not_found'],
  ['whois.srs.net.nz/weppos-nz-response_throttled.txt', 'jaycar.co.nz', 'rate_limited'],
  ['whois.srs.net.nz/weppos-nz-status_available.txt', 'u34jedzcq.co.nz', 'not_found'],
  ['whois.srs.net.nz/weppos-nz-status_invalid.txt', 'u34jedzcq.nz', 'unrecognized_answer'],
  ['whois.srs.net.nz/weppos-nz-status_registered.txt', 'google.co.nz', 'registered'],
  ['whois.tcinet.ru/likexian-ru-notfound.txt', 'likexian-have-no-money-to-register.ru', 'not_found'],
  ['whois.tcinet.ru/weppos-ru-status_available.txt', 'u34jedzcq.ru', 'not_found'],
  ['whois.tcinet.ru/weppos-ru-status_registered.txt', 'google.ru', 'registered'],
  ['whois.tonic.to/weppos-to-response_incomplete.txt', 'google.to', 'empty_answer'],
  ['whois.tonic.to/weppos-to-status_available.txt', 'u34jedzcq.to', 'not_found'],
  // Tonic's record is two `go <nameserver>` lines without the name: not recognisable as a record, so unknown.
  ['whois.tonic.to/weppos-to-status_registered.txt', 'google.to', 'unrecognized_answer'],
  ['whois.verisign-grs.com/likexian-com-notfound.txt', 'likexian-have-no-money-to-register.com', 'not_found'],
  ['whois.verisign-grs.com/likexian-net-notfound.txt', 'likexian-have-no-money-to-register.net', 'not_found'],
  ['whois.verisign-grs.com/weppos-com-status_available.txt', 'u34jedzcq.com', 'not_found'],
  ['whois.verisign-grs.com/weppos-com-status_registered.txt', 'google.com', 'registered'],
  ['whois.verisign-grs.com/weppos-net-status_available.txt', 'u34jedzcq.net', 'not_found'],
  ['whois.verisign-grs.com/weppos-net-status_registered.txt', 'google.net', 'registered'],
  // "Sorry, the Whois database is currently down."
  ['whois.verisign-grs.com/weppos-response_unavailable.txt', 'google.com', 'unrecognized_answer'],
  ['whois.verisign-grs.com/weppos-status_registered.txt', 'yoursrs.com', 'registered'],
];

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
