import { readdirSync } from 'node:fs';
import path from 'node:path';
import { cassetteDomainAnswers, EXPECTED, type RdapAnswer, rdapAnswers, readReal, realFiles } from './real-corpus.ts';
import { readCassette } from './replay-server.ts';

/**
 * The conformance table of the RDAP design note (docs/design/rdap.md), rendered from the corpus
 * itself so that it cannot drift from it (conformance-table.test.ts compares the two). A new server folder under
 * fixtures/real/rdap/ needs its name here.
 */
const SERVER_NAMES: Record<string, string> = {
  afnic: 'AFNIC (.fr)',
  centralnic: 'CentralNic (.xyz)',
  comlaude: 'Com Laude (registrar)',
  cznic: 'CZ.NIC (.cz)',
  flexireg: 'FlexiReg (.moscow)',
  markmonitor: 'MarkMonitor (registrar)',
  namecheap: 'Namecheap (registrar)',
  'nic.tube': '.tube registry',
  norid: 'Norid (.no)',
  ripe: 'RIPE NCC (reverse DNS)',
  uniregistry: 'Uniregistry (.click)',
  verisign: 'Verisign (.com)',
  zdns: 'ZDNS (.top)',
};

/** Documents whose example answers are read out of them, by file. */
const DOCUMENT_SERVERS: Record<string, string> = {
  'docs/dk-hostmaster-rdap-service-specification.md': 'DK Hostmaster (.dk)',
};

/** The recorded HTTP responses that end in a domain answer (nicinfo's raw responses, VCR cassettes), by file. */
const RECORDED_SERVERS: Record<string, string> = {
  'exchanges/nicinfo-nic_br.txt': 'NIC.br (.br)',
  'exchanges/nicinfo-foo_cz.txt': 'CZ.NIC (.cz)',
  'exchanges/nicinfo-arin_net.txt': 'Verisign Labs RDAP pilot (.net)',
  'exchanges/jarthod-pass_default_headers.yml': 'Verisign (.com)',
  'exchanges/jarthod-query_the_correct_bootstrap_URL_and_follow_redirections.yml': 'Verisign (.com)',
  'exchanges/jarthod-supports_giving_the_RDAP_server_directly.yml': 'Verisign (.com)',
  'exchanges/jarthod-supports_overriding_the_bootstrap_URL.yml': 'Verisign (.com)',
  'exchanges/jarthod-supports_rdap_nic_fr_which_does_not_accept_rdap_json_mimetype_as_of_2022-12-29_.yml':
    'AFNIC (.fr)',
};

/** The server of one domain answer; null for the RFC 9537 example records. */
function serverOf(answer: RdapAnswer): string | null {
  if (answer.id.startsWith('docs/')) return DOCUMENT_SERVERS[answer.file] ?? `unnamed document ${answer.file}`;
  if (answer.id.startsWith('exchanges/')) return RECORDED_SERVERS[answer.file] ?? `unnamed recording ${answer.file}`;
  const folder = answer.id.split('/')[1]!;
  if (folder === 'redacted') return null;
  return SERVER_NAMES[folder] ?? `unnamed folder ${folder}`;
}

/** Hosts of the recorded exchanges, by name. */
const EXCHANGE_HOSTS: Record<string, string> = {
  'rdap.org': 'rdap.org (redirects, its own 404)',
  'rdap-bootstrap.arin.net': "ARIN's bootstrap redirector (302)",
  'rdap.verisign.com': 'Verisign (.com)',
  'rdap.centralnic.com': 'CentralNic (.design, 404)',
  'rdap.nic.fr': 'AFNIC (.fr, 200 and its own 404 error list)',
};

const ERROR_SERVERS: Record<string, string> = {
  'rdap/errors/apnic-400.json': 'APNIC',
  'rdap/errors/ripe-404.json': 'RIPE NCC',
  'rdap/errors/ripe-501-nameserver.json': 'RIPE NCC',
};

export const TABLE_START = '<!-- conformance-table:start (rendered by apps/domain-intel/test/conformance-table.ts) -->';
export const TABLE_END = '<!-- conformance-table:end -->';

const unique = (values: string[]) => [...new Set(values)];

/** The hosts the jarthod cassettes (Ruby VCR) were recorded from. */
function exchangeHosts(): string[] {
  return realFiles('exchanges')
    .filter((file) => file.includes('jarthod'))
    .flatMap((file) => readCassette(readReal(file)).map((exchange) => new URL(exchange.uri).host));
}

/** Domain objects answered with a 200 at the end of the recorded VCR cassettes (counted among the answers). */
function exchangeDomainAnswers(): number {
  return cassetteDomainAnswers().length;
}

export interface CorpusCounts {
  domainAnswers: number;
  /** RFC 9537 example records among them (no server's answer). */
  exampleRecords: number;
  /** Servers that answered with a domain object (files and documents). */
  domainServers: string[];
  servers: string[];
  errorBodies: number;
  exchanges: number;
  handRead: number;
}

export function corpusCounts(): CorpusCounts {
  const answers = rdapAnswers();
  const domains = answers.filter((answer) => answer.body.objectClassName === 'domain');
  const folderServers = domains.flatMap((answer) => serverOf(answer) ?? []);
  const hostServers = exchangeHosts().map((host) => EXCHANGE_HOSTS[host] ?? `unnamed host ${host}`);
  const errorServers = answers
    .filter((answer) => answer.body.objectClassName !== 'domain')
    .map((answer) => ERROR_SERVERS[answer.id] ?? `unnamed error ${answer.id}`);
  // Servers are counted by operator: "Verisign (.com)" from a file and from an exchange is one.
  const operator = (name: string) => name.replace(/ \(.*\)$/, '');
  const servers = unique([...folderServers, ...hostServers, ...errorServers].map(operator)).sort();
  return {
    domainAnswers: domains.length,
    exampleRecords: domains.filter((answer) => serverOf(answer) === null).length,
    domainServers: unique(folderServers.map(operator)).sort(),
    servers,
    errorBodies: answers.length - domains.length,
    exchanges: realFiles('exchanges').length,
    handRead: Object.keys(EXPECTED).length,
  };
}

/** The table as Markdown, between its markers. */
export function renderConformanceTable(): string {
  const counts = corpusCounts();
  const answers = rdapAnswers();
  const domainServers = unique(
    answers
      .filter((answer) => answer.body.objectClassName === 'domain')
      .map((answer) => serverOf(answer) ?? 'RFC 9537 examples'),
  ).sort();
  const errorServers = unique(
    answers.filter((answer) => answer.body.objectClassName !== 'domain').map((a) => ERROR_SERVERS[a.id]!),
  ).sort();
  const synthetic = readdirSync(path.join(import.meta.dirname, 'fixtures', 'synthetic', 'not-rdap-404')).length;
  const rows = [
    [
      'RDAP domain answers',
      `${counts.domainAnswers} (${counts.handRead} read field by field; ${exchangeDomainAnswers()} of them in VCR cassettes)`,
      domainServers.join(', '),
      'parser; /v1/whois and /v1/check on loopback under TZ=Asia/Tokyo: dates, registry domain ID, registrar name / IANA id / handle / abuse contact, nameservers and addresses, status and EPP codes, DNSSEC and DS records, contacts by role, redacted fields, privacy service; `registered` (`real-corpus.test.ts`, `real-corpus-http.test.ts`)',
    ],
    [
      'recorded HTTP exchanges',
      String(counts.exchanges),
      unique(exchangeHosts().map((host) => EXCHANGE_HOSTS[host]!))
        .sort()
        .join(', '),
      'status, headers and body replayed: redirects, 404 with and without body, content types (`rdap-real-exchanges.test.ts`, `real-corpus-http.test.ts`)',
    ],
    [
      'RDAP error bodies',
      String(counts.errorBodies),
      errorServers.join(', '),
      'refused by the parser; only a 404 is `available`, the rest `unknown`',
    ],
    [
      'non-RDAP 404s (synthetic)',
      String(synthetic),
      'CDN XML, gateway JSON, text, HTML without a type',
      'never `available`',
    ],
    [
      'IANA `dns.json`',
      String(realFiles('bootstrap').length),
      'copies from 2017 to 2025 kept by openrdap, nicinfo, rdap_client, whoisit and rdap-cctld-ts',
      'servers per TLD through the bootstrap reader (`bootstrap-real-corpus.test.ts`)',
    ],
    [
      'Wayback CDX',
      String(realFiles('cdx').length),
      'web.archive.org answers (gzip) and the CDX server README (plain text, JSON, resume keys)',
      'captures, resume key, first capture through the client (`cdx-real-corpus.test.ts`)',
    ],
    [
      'zone files',
      String(realFiles('zones').length),
      'IANA root zone copy (cut off mid-record), uri.arpa (AXFR, signed), signed test root and ldns zone with escaped owners (RRSIG/NSEC/DS), dnspython and ldns test zones',
      'delegated names read by hand through the zone reader (`zones-real-corpus.test.ts`)',
    ],
  ];
  const lines = [
    TABLE_START,
    `${counts.domainAnswers} RDAP domain answers: ${counts.domainAnswers - counts.exampleRecords} from ` +
      `${counts.domainServers.length} servers (${counts.domainServers.join(', ')}) and ${counts.exampleRecords} ` +
      `RFC 9537 example records; ${counts.servers.length} servers in all with the redirects and error bodies.`,
    '',
    '| kind | files | servers / sources | checked |',
    '| --- | --- | --- | --- |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    TABLE_END,
  ];
  return lines.join('\n');
}
