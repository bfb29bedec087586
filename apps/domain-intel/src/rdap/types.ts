/**
 * The RDAP engine's contract. The RDAP work implements it; the lifecycle (drop verification),
 * availability and suggestions use it. Change it only together with every user.
 */

/** Our structured WHOIS record, parsed from RFC 9083 responses. */
export interface WhoisRecord {
  domain: string;
  unicode_name: string | null;
  registered: boolean;
  registrar: {
    name: string | null;
    iana_id: string | null;
    url: string | null;
    abuse_email: string | null;
    abuse_phone: string | null;
  } | null;
  created_at: string | null;
  updated_at: string | null;
  expires_at: string | null;
  nameservers: string[];
  /** RDAP status strings as the registry sent them (RFC 8056 names, lowercase with spaces). */
  status: string[];
  dnssec: boolean | null;
  registrant: {
    name: string | null;
    organization: string | null;
    email: string | null;
    country: string | null;
    redacted: boolean;
  } | null;
  /** URLs asked, registry first. */
  rdap_sources: string[];
  /** Parts that could not be fetched, e.g. `registrar_record` when the related hop failed. */
  missing: string[];
  fetched_at: string;
}

export type RdapLookup =
  /** The registry has a record: the name is registered. */
  | { kind: 'found'; record: WhoisRecord }
  /** The TLD's authoritative registry server answered 404: not registered. */
  | { kind: 'not_found'; source: string; checkedAt: string }
  /**
   * No reliable answer: timeout, 429, 5xx, malformed or oversize response, open circuit,
   * no RDAP server for the TLD. Never read as "available".
   */
  | { kind: 'unknown'; reason: RdapFailureReason; message: string; checkedAt: string };

export type RdapFailureReason =
  | 'timeout'
  | 'rate_limited'
  | 'upstream_error'
  | 'malformed_response'
  | 'response_too_large'
  | 'circuit_open'
  | 'no_rdap_server'
  | 'network_error'
  | 'deadline_exceeded';

export interface RdapLookupOptions {
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
  lookupDomain(name: string, options?: RdapLookupOptions): Promise<RdapLookup>;
}
