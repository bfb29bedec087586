import { request } from 'undici';
import { decodeWhoisAnswer } from '../whois/decode.ts';
import type { WhoisAddress, WhoisTransport } from '../whois/transport.ts';
import { parseRootDbIndex, type TldType } from './iana-root-db.ts';
import { parseIanaWhoisAnswer, parseTldList } from './tld-data.ts';

/** Where IANA publishes what the root-zone table holds. */
export interface IanaSources {
  /** IANA's TLD list, `https://data.iana.org/TLD/tlds-alpha-by-domain.txt`. */
  listUrl: string;
  /** The root-zone database index, `https://www.iana.org/domains/root/db` (each TLD's type). */
  rootDbUrl: string;
  /** IANA's WHOIS server, `whois.iana.org:43`: its `whois:` line names each TLD's server. */
  whois: WhoisAddress;
}

export const IANA_SOURCES: IanaSources = {
  listUrl: 'https://data.iana.org/TLD/tlds-alpha-by-domain.txt',
  rootDbUrl: 'https://www.iana.org/domains/root/db',
  whois: { host: 'whois.iana.org', port: 43 },
};

export interface RefreshProgress {
  tld: string;
  done: number;
  total: number;
  whois: string | null;
}

const MAX_PAGE_BYTES = 10 * 1024 * 1024;

/**
 * The root-zone table (data/root-zone.json) read afresh from IANA: the list, each TLD's type from
 * the root-zone database, and its WHOIS server from whois.iana.org, asked through the production
 * WHOIS transport (its rate limit and timeouts). A TLD IANA does not answer for in time keeps no
 * guess: the refresh fails, naming it, and the shipped table stays as it was.
 */
export async function refreshRootZone(
  sources: IanaSources,
  transport: WhoisTransport,
  options: { now: Date; deadlinePerQueryMs: number; onProgress?: (progress: RefreshProgress) => void },
): Promise<Record<string, unknown>> {
  const list = parseTldList(await fetchText(sources.listUrl));
  const types = parseRootDbIndex(await fetchText(sources.rootDbUrl));
  const tlds: { tld: string; type: TldType; whois: string | null }[] = [];
  for (const [index, tld] of list.tlds.entries()) {
    const type = types.get(tld);
    if (!type) throw new Error(`.${tld} is in IANA's TLD list but not in the root-zone database index`);
    const exchange = await transport.query(sources.whois, tld, {
      traffic: 'background',
      deadline: Date.now() + options.deadlinePerQueryMs,
    });
    if (exchange.kind === 'failure') {
      throw new Error(`${sources.whois.host} gave no answer for .${tld}: ${exchange.message}`);
    }
    const answer = parseIanaWhoisAnswer(decodeWhoisAnswer(exchange.bytes));
    if (answer.tld !== tld)
      throw new Error(`${sources.whois.host} answered about .${answer.tld} when asked for .${tld}`);
    tlds.push({ tld, type, whois: answer.whois });
    options.onProgress?.({ tld, done: index + 1, total: list.tlds.length, whois: answer.whois });
  }
  const retrieved = options.now.toISOString().slice(0, 10);
  const whoisUrl = `whois://${sources.whois.host}:${sources.whois.port}/<tld>`;
  return {
    source: [sources.listUrl, sources.rootDbUrl, whoisUrl],
    published: { version: list.version, last_updated: list.lastUpdated },
    retrieved,
    collected_from: [
      { part: 'TLD list', url: sources.listUrl, retrieved },
      { part: 'type', url: sources.rootDbUrl, retrieved },
      { part: 'whois', url: whoisUrl, retrieved },
    ],
    note: "Read from IANA by `domain-intel tlds refresh`: the TLD list, the type column of the root-zone database index and whois.iana.org's whois: line of each TLD (null where IANA names no server).",
    tlds,
  };
}

async function fetchText(url: string): Promise<string> {
  if (!/^https?:\/\//i.test(url)) throw new Error(`${url} is not an http(s) URL`);
  const response = await request(url, {
    headers: { 'user-agent': 'domain-intel/1.0 (+tlds refresh)' },
    signal: AbortSignal.timeout(60_000),
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`${url} answered HTTP ${response.statusCode}`);
  }
  const text = await response.body.text();
  if (text.length > MAX_PAGE_BYTES) throw new Error(`${url} sent more than ${MAX_PAGE_BYTES} bytes`);
  return text;
}
