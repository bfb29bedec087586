import type { Clock } from '@repo/server-kit';
import { recordAges } from '../rdap/client.ts';
import { serverRecord } from '../rdap/parse.ts';
import type { RdapFailureReason, RdapLookup, RdapLookupOptions, WhoisRecord } from '../rdap/types.ts';
import { readWhoisAnswer } from './answer.ts';
import { decodeWhoisAnswer } from './decode.ts';
import { whoisQuery, whoisServerProfile } from './server-profiles.ts';
import { serverKey, type WhoisAddress, type WhoisTransport } from './transport.ts';

/** Where a TLD's names are asked over port 43. */
export interface WhoisTarget {
  tld: string;
  /**
   * The TLD's own WHOIS server as IANA's root-zone database names it: whose answer patterns
   * read the answer. Equal to the address's host unless WHOIS_SERVERS points elsewhere.
   */
  authority: string;
  address: WhoisAddress;
}

export interface WhoisClientOptions {
  transport: WhoisTransport;
  clock: Clock;
  /** Budget of a lookup when the caller sets no deadline, ms. */
  defaultBudgetMs: number;
}

/**
 * Domain lookups over port-43 WHOIS (RFC 3912) for TLDs without RDAP: one query to the TLD's
 * server, the answer decoded in the server's charset and read with that server's own texts
 * (whois/answer.ts). `not_found` is only ever the authoritative server's own "no such domain";
 * a throttling text slows the server down for every instance and reads `rate_limited`.
 */
export class WhoisClient {
  readonly #options: WhoisClientOptions;

  constructor(options: WhoisClientOptions) {
    this.#options = options;
  }

  async lookupDomain(name: string, target: WhoisTarget, options: RdapLookupOptions): Promise<RdapLookup> {
    const server = serverKey(target.address);
    const deadline = options.deadline ?? Date.now() + this.#options.defaultBudgetMs;
    if (deadline <= Date.now()) {
      return this.#unknown('deadline_exceeded', 'The deadline passed before the lookup started.', server);
    }
    const profile = whoisServerProfile(target.authority);
    const exchange = await this.#options.transport.query(target.address, whoisQuery(profile, name), {
      traffic: options.traffic,
      deadline,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (exchange.kind === 'failure') {
      // Our own guard refusing the server's address leaves no server we may ask.
      const reason = exchange.reason === 'blocked_address' ? 'no_source' : exchange.reason;
      return this.#unknown(reason, exchange.message, server);
    }
    const text = decodeWhoisAnswer(exchange.bytes, profile?.charset);
    const reading = readWhoisAnswer({ server: target.authority, name, text });
    const queryUrl = `whois://${server}/${name}`;
    switch (reading.kind) {
      case 'registered':
        return { kind: 'found', record: this.#record(reading.record, server, queryUrl), raw: rawOf(text) };
      case 'not_found':
        return { kind: 'not_found', source: queryUrl, via: 'whois', server, checkedAt: this.#now() };
      case 'reserved':
        return { kind: 'reserved', via: 'whois', server, message: reading.message, checkedAt: this.#now() };
      case 'unknown':
        if (reading.reason === 'rate_limited') {
          await this.#options.transport.throttled(target.address, exchange.generation);
        }
        return this.#unknown(reading.reason, reading.message, server);
    }
  }

  #record(parsed: Parameters<typeof serverRecord>[0], server: string, queryUrl: string): WhoisRecord {
    const fetchedAt = this.#options.clock.now();
    return {
      ...parsed,
      source: 'whois',
      server,
      rdap_sources: [queryUrl],
      missing: [],
      fetched_at: new Date(fetchedAt).toISOString(),
      ...recordAges(parsed, fetchedAt),
      records: { registry: serverRecord(parsed, queryUrl), registrar: null },
    };
  }

  #unknown(reason: RdapFailureReason, message: string, server: string): RdapLookup {
    return { kind: 'unknown', reason, message, checkedAt: this.#now(), via: 'whois', server };
  }

  #now(): string {
    return new Date(this.#options.clock.now()).toISOString();
  }
}

/** `?raw=1` of a WHOIS answer: the text as decoded (the wire's `raw.registry`). */
function rawOf(text: string) {
  return { registry: { whois: text }, registrar: null };
}
