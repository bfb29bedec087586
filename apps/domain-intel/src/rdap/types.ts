/**
 * The RDAP engine's contract. The RDAP work implements it; the lifecycle (drop verification),
 * availability and suggestions use it. Change it only together with every user.
 */

import type { WhoisContacts, WhoisRegistrar, WhoisRecord as WhoisWireRecord } from '@repo/contracts/domain-intel';

// The WHOIS record is the wire record of packages/contracts (written once there, as a TypeBox
// schema); these are its parts under the names the RDAP code uses.
export type {
  DelegationSignerRecord,
  NameserverDetail,
  RdapServerRecord,
  Redaction,
  WhoisContact,
  WhoisContactField,
} from '@repo/contracts/domain-intel';

export type ContactRole = keyof WhoisContacts;
export type RegistrarSummary = WhoisRegistrar;

/** Our structured WHOIS record, parsed from RFC 9083 responses: the wire record less what the route adds. */
export type WhoisRecord = Omit<WhoisWireRecord, 'cached' | 'raw'>;

/** The RDAP documents behind a record, for `?raw=1`. */
export interface RawRdapDocuments {
  registry: Record<string, unknown>;
  registrar: Record<string, unknown> | null;
}

/** How the registry was asked. */
export type LookupProtocol = 'rdap' | 'whois';

/**
 * What the TLD's registry said about a name, through RDAP or (for TLDs without RDAP) port-43
 * WHOIS. `server` is the server asked: an RDAP base URL, or a WHOIS server as `host:port`.
 */
export type RdapLookup =
  /** The registry has a record: the name is registered. */
  | { kind: 'found'; record: WhoisRecord; raw: RawRdapDocuments }
  /** The TLD's authoritative server said it has no such domain (RDAP 404, its own WHOIS "not found" text). */
  | { kind: 'not_found'; source: string; via: LookupProtocol; server: string; checkedAt: string }
  /** The registry's own WHOIS answer says the name is reserved or blocked: not registrable. */
  | { kind: 'reserved'; via: LookupProtocol; server: string; message: string; checkedAt: string }
  /**
   * No reliable answer: timeout, 429, 5xx, malformed or oversize response, open circuit,
   * a throttling or unrecognised WHOIS text, no server for the TLD. Never read as "available".
   */
  | {
      kind: 'unknown';
      reason: RdapFailureReason;
      message: string;
      checkedAt: string;
      via?: LookupProtocol;
      server?: string;
    };

export type RdapFailureReason =
  | 'timeout'
  | 'rate_limited'
  | 'upstream_error'
  | 'malformed_response'
  | 'response_too_large'
  | 'circuit_open'
  | 'no_rdap_server'
  | 'network_error'
  | 'deadline_exceeded'
  /** Neither an RDAP nor a WHOIS server is known for the TLD. */
  | 'no_source'
  /** WHOIS: an answer that matches none of the server's known texts (never read as "available"). */
  | 'unrecognized_answer'
  /** WHOIS: the server answered nothing. */
  | 'empty_answer'
  /** WHOIS: the server sent us to another server instead of answering for its TLD. */
  | 'referral'
  /** WHOIS: no table of this server's answers, and the answer is not plainly a record of the name. */
  | 'no_pattern_table';

/**
 * Who is waiting for a lookup: a customer's call (`/v1/check`, `/v1/whois`, suggestions) or the
 * pipeline's own work (re-checks, the watchlist round). Background work takes at most
 * `1 − RDAP_INTERACTIVE_SHARE` of a registry's rate; the caller says which it is.
 */
export type RdapTraffic = 'interactive' | 'background';

export interface RdapLookupOptions {
  traffic: RdapTraffic;
  /**
   * Absolute time (epoch ms) after which the lookup gives up with `deadline_exceeded`. Wall-clock
   * time (`Date.now()`), not the context clock: it bounds real waiting, also under a manual test clock.
   */
  deadline?: number;
  signal?: AbortSignal;
  /** Skip the registrar hop (drop verification needs only the registry's answer). */
  registryOnly?: boolean;
}

export interface RdapClient {
  /** `name` must already be normalised (see domain/normalize.ts): lowercase ASCII, registrable. */
  lookupDomain(name: string, options: RdapLookupOptions): Promise<RdapLookup>;
}
