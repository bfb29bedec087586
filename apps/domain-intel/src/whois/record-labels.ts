import type { ContactRole } from '../rdap/types.ts';

/**
 * The labels registries give each field of a WHOIS record, normalised as answer-lines.ts
 * normalises them, in order of preference (the first label present wins). Read off the answers
 * in test/fixtures/real/whois/: ICANN's gTLD format (Verisign, PIR, Identity Digital, CentralNic…),
 * RIPE-style ccTLD keys (AFNIC, TCI, IIS, Norid, NIC.br), DENIC, Nominet, SWITCH, EURid, .it, CIRA,
 * .nz (`domain_dateregistered`), JPRS (`[Created on]`), CNNIC (`Registration Time`).
 */
export const RECORD_LABELS = {
  domain: ['domain name', 'domain', 'domainname', 'domain name (ascii)', 'complete domain name'],
  registry_domain_id: ['registry domain id', 'domain id', 'roid'],
  registrar_name: [
    'registrar',
    'sponsoring registrar',
    'registrar name',
    'registrar organization',
    'registrar organization name',
    'registrar name (ascii)',
    'record maintained by',
  ],
  registrar_iana_id: ['registrar iana id', 'sponsoring registrar iana id'],
  registrar_url: ['registrar url', 'referral url', 'registrar website', 'registrar web'],
  registrar_abuse_email: ['registrar abuse contact email'],
  registrar_abuse_phone: ['registrar abuse contact phone'],
  created: [
    'creation date',
    'created',
    'created on',
    'created date',
    'registered on',
    'registered',
    'registration date',
    'registration time',
    'domain registration date',
    'domain create date',
    'date registered',
    'registered date',
    'domain dateregistered',
    'first registration date',
    'record created',
  ],
  updated: [
    'updated date',
    'last updated',
    'last update',
    'last modified',
    'last-update',
    'modified',
    'changed',
    'domain datelastmodified',
    'domain last updated date',
    'last updated on',
    'updated',
    'record last updated',
  ],
  expires: [
    'registry expiry date',
    'expiry date',
    'expiration date',
    'expire date',
    'expires on',
    'expires',
    'expire',
    'paid-till',
    'renewal date',
    'domain datebilleduntil',
    'domain expiration date',
    'expiration time',
    'expired',
    'registrar registration expiration date',
  ],
  transferred: ['last transferred date', 'transferred', 'last transfer date'],
  status: ['domain status', 'status', 'state', 'registration status', 'eppstatus', 'query status'],
  nameservers: [
    'name server',
    'name servers',
    'nameserver',
    'nameservers',
    'nserver',
    'ns name',
    'hostname',
    'host name',
    'name servers dns',
    'domain servers in listed order',
    'name server information',
    'domain nameservers',
    'primary server hostname',
    'secondary server hostname',
    'third server hostname',
    'fourth server hostname',
  ],
  dnssec: ['dnssec', 'signing key', 'dnssec signed', 'domain signed'],
  ds_records: ['dnssec ds data', 'ds rdata', 'ds record', 'ds data', 'dsrecord', 'ds'],
  referral: ['refer', 'whois server', 'registrar whois server', 'referralserver', 'whois'],
} as const satisfies Record<string, readonly string[]>;

/** Blocks that hold the registrar (EURid, Nominet, .it, SWITCH) and the labels of its parts inside them. */
export const REGISTRAR_SECTIONS = ['registrar', 'sponsoring registrar', 'registrar information'] as const;
export const REGISTRAR_SECTION_LABELS = {
  name: ['organization', 'organisation', 'name', 'registrar name'],
  url: ['url', 'website', 'web', 'www'],
} as const;

/**
 * Contact roles: ICANN's prefixed labels (`Registrant Name`, `Admin Email`, `Tech Phone`) and the
 * blocks other registries open for a contact (DENIC `[Tech-C]`, .it `Admin Contact`, Nominet `Registrant`).
 */
export const ROLE_PREFIXES: readonly [string, ContactRole][] = [
  ['registrant', 'registrant'],
  ['holder', 'registrant'],
  ['owner', 'registrant'],
  ['administrative contact', 'administrative'],
  ['administrative', 'administrative'],
  ['admin contact', 'administrative'],
  ['admin', 'administrative'],
  ['admin-c', 'administrative'],
  ['technical contacts', 'technical'],
  ['technical contact', 'technical'],
  ['technical', 'technical'],
  ['tech contact', 'technical'],
  ['tech', 'technical'],
  ['tech-c', 'technical'],
  // ICANN's `Registry Registrant ID` / `Registry Admin ID` …: the contact's handle at the registry.
  ['registry registrant', 'registrant'],
  ['registry admin', 'administrative'],
  ['registry tech', 'technical'],
  ['registry billing', 'billing'],
  ['billing contact', 'billing'],
  ['billing', 'billing'],
  ['organization using domain name', 'registrant'],
];

/** The contact fields, by the labels that follow the role (or stand alone inside a role's block). */
export const CONTACT_FIELD_LABELS = {
  handle: ['id', 'contactid', 'contact id', 'handle', 'nic-hdl', 'nic handle (if known)'],
  name: ['name', 'contact name', 'person', 'name (last, first)'],
  organization: ['organization', 'organisation', 'org', 'company', 'organization name'],
  email: ['email', 'e-mail', 'contact email', 'e-mailbox'],
  phone: ['phone', 'phone number', 'telephone'],
  fax: ['fax', 'fax number', 'fax-no'],
  street: ['street', 'address', 'street address'],
  city: ['city'],
  region: ['state/province', 'state', 'province'],
  postal_code: ['postal code', 'postalcode', 'postcode', 'zip code'],
  country: ['country', 'country code', 'countrycode'],
} as const;
