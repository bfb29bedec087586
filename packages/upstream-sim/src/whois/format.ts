import type { SimDomain } from '../world.ts';
import { encodeIso2022Jp } from './iso-2022-jp.ts';

export type WhoisCharset = 'utf-8' | 'latin1' | 'iso-2022-jp';

/** What a query line asked for, as the real server reads its own query syntax. */
export interface WhoisQuery {
  /** The domain name asked for, lowercase. */
  name: string;
  /** A server answering in two languages (JPRS): the one asked for. */
  english?: boolean;
  /** A server whose charset the query can choose (DK Hostmaster's `--charset=utf-8`). */
  charset?: WhoisCharset;
}

/**
 * One real WHOIS server's answers, as templates (render.ts) copied from real answers with the
 * values replaced. Each format file names the real answers it follows.
 */
export interface WhoisFormat {
  /** The registry operator. */
  name: string;
  /** The real server this one plays. */
  host: string;
  /** Where the real server's dates are written (IANA zone). */
  timeZone: string;
  /** Line ending of the real answers. */
  eol: '\r\n' | '\n';
  charset: WhoisCharset;
  /** Reads a query line (CRLF removed); undefined for one the real server rejects. Default: a bare domain name. */
  parse?(line: string): WhoisQuery | undefined;
  registered(query: WhoisQuery): string;
  free(query: WhoisQuery): string;
  /** The registry's own answer for a name on its reserved list (absent: answered as a free name, as the real one does). */
  reserved?(query: WhoisQuery): string;
  /** The real server's throttling answer (absent: it drops the connection instead). */
  throttled?(query: WhoisQuery): string;
  /** The answer to a query line the server cannot read (absent: the connection is closed unanswered). */
  invalid?(line: string): string;
  /** The registry's own word for a registered name's state ({{state}}). */
  state?(domain: SimDomain): string;
}

/** A bare domain name, as most servers take it. */
export function parseDomainQuery(line: string): WhoisQuery | undefined {
  const name = line.trim().toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name) ? { name } : undefined;
}

export function encodeAnswer(text: string, charset: WhoisCharset): Buffer {
  if (charset === 'iso-2022-jp') return encodeIso2022Jp(text);
  return Buffer.from(text, charset === 'latin1' ? 'latin1' : 'utf8');
}
