/**
 * The RDAP engine's contract. The RDAP work implements it; the lifecycle (drop verification),
 * availability and suggestions use it. Change it only together with every user.
 */

/** The fields of a published contact that a server can withhold. */
export type WhoisContactField =
  | 'name'
  | 'organization'
  | 'email'
  | 'phone'
  | 'fax'
  | 'street'
  | 'city'
  | 'region'
  | 'postal_code'
  | 'country';

/** One contact of a domain (RFC 9083 entity) as we publish it; withheld fields are null. */
export interface WhoisContact {
  handle: string | null;
  name: string | null;
  organization: string | null;
  email: string | null;
  phone: string | null;
  fax: string | null;
  /** Street lines of the postal address. */
  street: string[];
  city: string | null;
  region: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2, also when the server wrote the country's name. */
  country: string | null;
  /** Our names of this contact's fields the server says it withheld (RFC 9537) or replaced by a placeholder. */
  redacted_fields: WhoisContactField[];
}

export type ContactRole = 'registrant' | 'administrative' | 'technical' | 'billing' | 'abuse';

/** One RFC 9537 `redacted` member. */
export interface Redaction {
  name: string | null;
  path: string | null;
  method: string | null;
  reason: string | null;
}

export interface DelegationSignerRecord {
  key_tag: number | null;
  algorithm: number | null;
  digest_type: number | null;
  digest: string | null;
}

export interface NameserverDetail {
  name: string;
  ipv4: string[];
  ipv6: string[];
}

export interface RegistrarSummary {
  name: string | null;
  iana_id: string | null;
  url: string | null;
  abuse_email: string | null;
  abuse_phone: string | null;
  /** The registrar's handle at the server; some registries give nothing else. */
  handle: string | null;
}

/** What one RDAP server (the registry, or the registrar) said about the domain. */
export interface RdapServerRecord {
  source: string;
  registry_domain_id: string | null;
  registrar: RegistrarSummary | null;
  created_at: string | null;
  updated_at: string | null;
  expires_at: string | null;
  transferred_at: string | null;
  status: string[];
  nameservers: string[];
  contacts: Record<ContactRole, WhoisContact | null>;
}

/** Our structured WHOIS record, parsed from RFC 9083 responses. */
export interface WhoisRecord {
  domain: string;
  unicode_name: string | null;
  registered: boolean;
  registrar: RegistrarSummary | null;
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
  /** The registry's handle of the domain (WHOIS "Registry Domain ID"). */
  registry_domain_id: string | null;
  transferred_at: string | null;
  /** Whole days since `created_at`, as of the response. */
  age_days: number | null;
  /** Whole days until `expires_at` (negative once past), as of the response. */
  expires_in_days: number | null;
  /** `status` as EPP codes (RFC 5731/3915 via RFC 8056), e.g. `clientTransferProhibited`; unknown values kept as sent. */
  status_epp: string[];
  nameserver_details: NameserverDetail[];
  dnssec_details: { delegation_signed: boolean | null; ds_records: DelegationSignerRecord[] };
  contacts: Record<ContactRole, WhoisContact | null>;
  /** The RFC 9537 `redacted` members of the registry and registrar answers. */
  redactions: Redaction[];
  /** The registrant is a known privacy or proxy service, not the holder. */
  privacy_service: boolean;
  /** The registry's and the registrar's answers, each with its source. */
  records: { registry: RdapServerRecord; registrar: RdapServerRecord | null };
}

/** The RDAP documents behind a record, for `?raw=1`. */
export interface RawRdapDocuments {
  registry: Record<string, unknown>;
  registrar: Record<string, unknown> | null;
}

export type RdapLookup =
  /** The registry has a record: the name is registered. */
  | { kind: 'found'; record: WhoisRecord; raw: RawRdapDocuments }
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
