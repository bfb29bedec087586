import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/**
 * The /v1/whois record. Every field of the first version keeps its name and type; the rest is
 * additive (registry_domain_id onwards). The API serves it, the service builds values of its
 * types (apps/domain-intel/src/rdap/types.ts) and the SDK returns it.
 */

// `type: [T, 'null']` rather than `anyOf`: the response serializer (fast-json-stringify) would
// otherwise compile a validator per union to pick the branch, which is slow for a record this size.
type Nullable<T extends TSchema> = TUnsafe<Static<T> | null>;
const Nullable = <T extends TSchema>(schema: T): Nullable<T> =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as unknown as { type: string }).type, 'null'] });
const DateTime = () => Nullable(Type.String({ format: 'date-time' }));

export const WhoisRegistrar = Type.Object({
  name: Nullable(Type.String()),
  iana_id: Nullable(
    Type.String({ description: 'IANA Registrar ID (from publicIds, or the handle gTLD registries use)' }),
  ),
  url: Nullable(Type.String()),
  abuse_email: Nullable(Type.String()),
  abuse_phone: Nullable(Type.String()),
  handle: Nullable(Type.String({ description: "The registrar's handle at the server (all some ccTLDs give)" })),
});

export const WhoisContactField = Type.Union([
  Type.Literal('name'),
  Type.Literal('organization'),
  Type.Literal('email'),
  Type.Literal('phone'),
  Type.Literal('fax'),
  Type.Literal('street'),
  Type.Literal('city'),
  Type.Literal('region'),
  Type.Literal('postal_code'),
  Type.Literal('country'),
]);

export const WhoisContact = Type.Object({
  handle: Nullable(Type.String()),
  name: Nullable(Type.String()),
  organization: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  fax: Nullable(Type.String()),
  street: Type.Array(Type.String()),
  city: Nullable(Type.String()),
  region: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  redacted_fields: Type.Array(WhoisContactField, {
    description: 'Fields the server withheld (RFC 9537 redactions or placeholders); those are null or empty',
  }),
});

export const WhoisContacts = Type.Object({
  registrant: Nullable(WhoisContact),
  administrative: Nullable(WhoisContact),
  technical: Nullable(WhoisContact),
  billing: Nullable(WhoisContact),
  abuse: Nullable(WhoisContact),
});

export const NameserverDetail = Type.Object({
  name: Type.String(),
  ipv4: Type.Array(Type.String()),
  ipv6: Type.Array(Type.String()),
});

export const DelegationSignerRecord = Type.Object({
  key_tag: Nullable(Type.Integer()),
  algorithm: Nullable(Type.Integer()),
  digest_type: Nullable(Type.Integer()),
  digest: Nullable(Type.String()),
});

/** One RFC 9537 `redacted` member. */
export const Redaction = Type.Object({
  name: Nullable(Type.String()),
  path: Nullable(Type.String({ description: 'JSONPath of the redacted member' })),
  method: Nullable(Type.String({ description: 'removal, emptyValue, partialValue or replacementValue' })),
  reason: Nullable(Type.String()),
});

export const RdapServerRecord = Type.Object({
  source: Type.String({ description: 'The RDAP URL this record was read from' }),
  registry_domain_id: Nullable(Type.String()),
  registrar: Nullable(WhoisRegistrar),
  created_at: DateTime(),
  updated_at: DateTime(),
  expires_at: DateTime(),
  transferred_at: DateTime(),
  status: Type.Array(Type.String()),
  nameservers: Type.Array(Type.String()),
  contacts: WhoisContacts,
});

export const WhoisRecord = Type.Object({
  domain: Type.String({ description: 'ASCII (punycode) name' }),
  unicode_name: Nullable(Type.String()),
  registered: Type.Boolean(),
  registrar: Nullable(WhoisRegistrar),
  created_at: DateTime(),
  updated_at: DateTime(),
  expires_at: DateTime(),
  nameservers: Type.Array(Type.String()),
  status: Type.Array(Type.String(), {
    description: 'RDAP status values (RFC 8056), e.g. "client transfer prohibited"',
  }),
  dnssec: Nullable(Type.Boolean()),
  registrant: Nullable(
    Type.Object(
      {
        name: Nullable(Type.String()),
        organization: Nullable(Type.String()),
        email: Nullable(Type.String()),
        country: Nullable(Type.String()),
        redacted: Type.Boolean({ description: 'Some registrant data is withheld by the registry or registrar' }),
      },
      { description: 'null when neither registry nor registrar publishes a registrant' },
    ),
  ),
  source: Type.Union([Type.Literal('rdap'), Type.Literal('whois')], {
    description: "Which protocol the registry's answer came by: RDAP, or port-43 WHOIS for TLDs without RDAP",
  }),
  server: Type.String({
    description: 'The registry server asked: the RDAP base URL, or the WHOIS server as host:port',
  }),
  rdap_sources: Type.Array(Type.String(), {
    description: 'RDAP URLs asked, registry first (for a WHOIS answer, the whois:// URL of the query)',
  }),
  missing: Type.Array(Type.String(), {
    description: 'Parts that could not be fetched, e.g. registrar_record when the registrar server failed',
  }),
  fetched_at: Type.String({ format: 'date-time', description: 'When the registry was asked (earlier when cached)' }),
  registry_domain_id: Nullable(Type.String({ description: "The registry's handle of the domain" })),
  transferred_at: DateTime(),
  age_days: Nullable(Type.Integer({ description: 'Whole days since created_at, as of this response' })),
  expires_in_days: Nullable(
    Type.Integer({ description: 'Whole days until expires_at (negative once past), as of this response' }),
  ),
  status_epp: Type.Array(Type.String(), {
    description: 'status as EPP codes (RFC 8056 mapping), e.g. "clientTransferProhibited"; others as sent',
  }),
  nameserver_details: Type.Array(NameserverDetail),
  dnssec_details: Type.Object({
    delegation_signed: Nullable(Type.Boolean()),
    ds_records: Type.Array(DelegationSignerRecord),
  }),
  contacts: WhoisContacts,
  redactions: Type.Array(Redaction, {
    description: 'RFC 9537 redactions declared by the registry and the registrar',
  }),
  privacy_service: Type.Boolean({ description: 'The registrant is a known privacy or proxy service' }),
  records: Type.Object(
    { registry: RdapServerRecord, registrar: Nullable(RdapServerRecord) },
    { description: "The registry's and the registrar's answers kept apart, each with its source" },
  ),
  cached: Type.Boolean({ description: 'Served from the WHOIS cache (see fetched_at)' }),
  raw: Type.Optional(
    Type.Object(
      {
        registry: Type.Record(Type.String(), Type.Unknown()),
        registrar: Nullable(Type.Record(Type.String(), Type.Unknown())),
      },
      {
        description:
          'With ?raw=1: the RDAP documents as the servers sent them; for a WHOIS answer, registry is ' +
          '{"whois": "<the answer text as decoded>"}',
      },
    ),
  ),
});

export type WhoisRegistrar = Static<typeof WhoisRegistrar>;
export type WhoisContactField = Static<typeof WhoisContactField>;
export type WhoisContact = Static<typeof WhoisContact>;
export type WhoisContacts = Static<typeof WhoisContacts>;
export type NameserverDetail = Static<typeof NameserverDetail>;
export type DelegationSignerRecord = Static<typeof DelegationSignerRecord>;
export type Redaction = Static<typeof Redaction>;
export type RdapServerRecord = Static<typeof RdapServerRecord>;
/** The /v1/whois record as sent (`raw` only with `?raw=1`). */
export type WhoisRecord = Static<typeof WhoisRecord>;
