import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The real port-43 WHOIS answers (test/fixtures/real/whois/<server>/<case>.txt), read as the client decodes them. */
export const WHOIS_CORPUS = fileURLToPath(new URL('./fixtures/real/whois/', import.meta.url));

/** `<server>/<case>.txt` of every recorded answer. */
export function whoisCorpusFiles(): string[] {
  return readdirSync(WHOIS_CORPUS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((server) => readdirSync(`${WHOIS_CORPUS}${server.name}`).map((file) => `${server.name}/${file}`))
    .sort();
}

/** Every recorded answer is ASCII or UTF-8 (SOURCES.md records the charset of each). */
export function whoisAnswer(file: string): string {
  return readFileSync(`${WHOIS_CORPUS}${file}`, 'utf8');
}

/** The files SOURCES.md lists, by their `<server>/<case>.txt`. */
export function whoisFilesWithSources(): Set<string> {
  const sources = readFileSync(`${WHOIS_CORPUS}SOURCES.md`, 'utf8');
  return new Set([...sources.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1] ?? ''));
}

export type WhoisExpected =
  | 'registered'
  | 'not_found'
  | 'reserved'
  | 'rate_limited'
  | 'unrecognized_answer'
  | 'empty_answer';

/**
 * Every recorded answer, the name it was asked about (read off the file where it names one; the
 * recording repository's test name where it does not: weppos asks `u34jedzcq.<tld>` for free
 * names), and what it says, read by hand.
 */
export const WHOIS_CASES: [file: string, name: string, expected: WhoisExpected][] = [
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
