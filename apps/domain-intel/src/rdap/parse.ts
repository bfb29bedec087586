import { domainToUnicode } from 'node:url';
import {
  asArray,
  asString,
  type ContactField,
  entitiesWithRole,
  isObject,
  isoCountry,
  type Json,
  readContact,
} from './contacts.ts';
import { rdapDate } from './dates.ts';
import { isPrivacyService } from './privacy-services.ts';
import { readRedactions, redactedFieldsByRole } from './redactions.ts';
import { eppStatus, normalizeStatus } from './status.ts';
import type {
  ContactRole,
  DelegationSignerRecord,
  NameserverDetail,
  RdapServerRecord,
  RegistrarSummary,
  WhoisContact,
  WhoisRecord,
} from './types.ts';

export { normalizeStatus } from './status.ts';

/** What the client adds after fetching (sources, time, ages); the rest comes from the documents. */
type FetchFacts =
  | 'source'
  | 'server'
  | 'rdap_sources'
  | 'missing'
  | 'fetched_at'
  | 'age_days'
  | 'expires_in_days'
  | 'records';

/** One server's answer read into our record, before any registrar data is merged in. */
export type ParsedDomain = Omit<WhoisRecord, FetchFacts>;

export class MalformedRdapError extends Error {}

const CONTACT_ROLES: ContactRole[] = ['registrant', 'administrative', 'technical', 'billing', 'abuse'];

/**
 * Reads an RFC 9083 domain object. Registries differ in what they fill in and how they spell
 * it; anything absent is null, and only a body that is not a domain object at all is refused.
 */
export function parseDomainObject(body: Json, requestedName: string): ParsedDomain {
  const objectClass = asString(body.objectClassName)?.toLowerCase();
  if (objectClass !== 'domain' && !(objectClass === null && asString(body.ldhName))) {
    throw new MalformedRdapError('The RDAP response is not a domain object.');
  }
  const status = asArray(body.status).flatMap((value) => (typeof value === 'string' ? [normalizeStatus(value)] : []));
  const nameserverDetails = readNameservers(body);
  const secureDns = isObject(body.secureDNS) ? body.secureDNS : isObject(body.secureDns) ? body.secureDns : null;
  const redactions = readRedactions(body);
  const contacts = readContacts(body, redactedFieldsByRole(redactions));
  const registrant = contacts.registrant;
  return {
    domain: requestedName,
    // Registries often omit unicodeName for IDNs; the punycode name gives it exactly.
    unicode_name: withoutTrailingDot(asString(body.unicodeName)) ?? unicodeFormOf(requestedName),
    registered: true,
    registrar: readRegistrar(body),
    created_at: eventDate(body, ['registration']),
    updated_at: eventDate(body, ['last changed', 'last update', 'last modified']),
    expires_at: eventDate(body, ['expiration']),
    nameservers: nameserverDetails.map((nameserver) => nameserver.name),
    status,
    dnssec: secureDns && typeof secureDns.delegationSigned === 'boolean' ? secureDns.delegationSigned : null,
    registrant: registrant
      ? {
          name: registrant.name,
          organization: registrant.organization,
          email: registrant.email,
          country: registrant.country,
          redacted:
            registrant.redacted_fields.length > 0 ||
            registrantRedactedByRemark(body) ||
            redactions.some((redaction) => /registrant/i.test(redaction.name ?? '')),
        }
      : null,
    registry_domain_id: asString(body.handle),
    transferred_at: eventDate(body, ['transfer']),
    status_epp: status.map(eppStatus),
    nameserver_details: nameserverDetails,
    dnssec_details: {
      delegation_signed:
        secureDns && typeof secureDns.delegationSigned === 'boolean' ? secureDns.delegationSigned : null,
      ds_records: secureDns ? readDsRecords(secureDns) : [],
    },
    contacts,
    redactions,
    privacy_service: registrant ? isPrivacyService(registrant.name, registrant.organization) : false,
  };
}

/** The part of a parsed answer that is one server's record, kept apart in `records`. */
export function serverRecord(parsed: ParsedDomain, source: string): RdapServerRecord {
  return {
    source,
    registry_domain_id: parsed.registry_domain_id,
    registrar: parsed.registrar,
    created_at: parsed.created_at,
    updated_at: parsed.updated_at,
    expires_at: parsed.expires_at,
    transferred_at: parsed.transferred_at,
    status: parsed.status,
    nameservers: parsed.nameservers,
    contacts: parsed.contacts,
  };
}

/**
 * The registrar's own RDAP record of the domain, from a `related` link of media type
 * `application/rdap+json` (RFC 9083 §4.2; how gTLD registries point at registrars).
 */
export function registrarLink(body: Json, baseUrl: string): string | null {
  const holders = [body, ...entitiesWithRole(body, 'registrar')];
  for (const holder of holders) {
    for (const link of asArray(holder.links)) {
      if (!isObject(link)) continue;
      const rel = asString(link.rel)?.toLowerCase();
      const type = asString(link.type)?.toLowerCase();
      const href = asString(link.href);
      if (rel !== 'related' || type !== 'application/rdap+json' || !href) continue;
      try {
        return new URL(href, baseUrl).toString();
      } catch {
        // An unparseable link is skipped like an absent one.
      }
    }
  }
  return null;
}

/**
 * Merges the registrar's record into the registry's: the registry stays authoritative for
 * dates, status and nameservers; the registrar fills in what the registry leaves empty
 * (contacts, registrar details).
 */
export function mergeRegistrarRecord(registry: ParsedDomain, registrar: ParsedDomain): ParsedDomain {
  const fromRegistry = registry.registrar;
  const fromRegistrar = registrar.registrar;
  const mergedRegistrar: RegistrarSummary | null =
    fromRegistry && fromRegistrar
      ? {
          name: fromRegistry.name ?? fromRegistrar.name,
          iana_id: fromRegistry.iana_id ?? fromRegistrar.iana_id,
          url: fromRegistry.url ?? fromRegistrar.url,
          abuse_email: fromRegistry.abuse_email ?? fromRegistrar.abuse_email,
          abuse_phone: fromRegistry.abuse_phone ?? fromRegistrar.abuse_phone,
          handle: fromRegistry.handle ?? fromRegistrar.handle,
        }
      : (fromRegistry ?? fromRegistrar);
  const contacts = { ...registry.contacts };
  for (const role of CONTACT_ROLES) contacts[role] = preferContact(registry.contacts[role], registrar.contacts[role]);
  const registrant = preferRegistrant(registry.registrant, registrar.registrant);
  return {
    ...registry,
    unicode_name: registry.unicode_name ?? registrar.unicode_name,
    registrar: mergedRegistrar,
    created_at: registry.created_at ?? registrar.created_at,
    updated_at: registry.updated_at ?? registrar.updated_at,
    expires_at: registry.expires_at ?? registrar.expires_at,
    transferred_at: registry.transferred_at ?? registrar.transferred_at,
    dnssec: registry.dnssec ?? registrar.dnssec,
    dnssec_details:
      registry.dnssec_details.delegation_signed === null ? registrar.dnssec_details : registry.dnssec_details,
    registrant,
    contacts,
    redactions: [...registry.redactions, ...registrar.redactions],
    privacy_service: registry.privacy_service || registrar.privacy_service,
  };
}

function filledFields(contact: WhoisContact | ParsedDomain['registrant']): number {
  if (!contact) return -1;
  return [contact.name, contact.organization, contact.email, contact.country].filter((value) => value !== null).length;
}

function preferRegistrant(registry: ParsedDomain['registrant'], registrar: ParsedDomain['registrant']) {
  if (!registry) return registrar;
  if (!registrar) return registry;
  return filledFields(registrar) > filledFields(registry) ? registrar : registry;
}

function preferContact(registry: WhoisContact | null, registrar: WhoisContact | null): WhoisContact | null {
  return filledFields(registrar) > filledFields(registry) ? registrar : registry;
}

function eventDate(body: Json, actions: string[]): string | null {
  for (const action of actions) {
    for (const event of asArray(body.events)) {
      if (!isObject(event) || asString(event.eventAction)?.toLowerCase() !== action) continue;
      const date = asString(event.eventDate);
      const iso = date ? rdapDate(date) : null;
      if (iso) return iso;
    }
  }
  return null;
}

function withoutTrailingDot(name: string | null): string | null {
  return name ? name.replace(/\.$/, '') : null;
}

/** `nameservers` (RFC 9083), or `nameServers` as some servers spell it; names lowercased, without a trailing dot. */
function readNameservers(body: Json): NameserverDetail[] {
  const byName = new Map<string, NameserverDetail>();
  for (const nameserver of asArray(body.nameservers ?? body.nameServers)) {
    if (!isObject(nameserver)) continue;
    const name = withoutTrailingDot(asString(nameserver.ldhName) ?? asString(nameserver.unicodeName))?.toLowerCase();
    if (!name || byName.has(name)) continue;
    const addresses = isObject(nameserver.ipAddresses) ? nameserver.ipAddresses : {};
    const list = (value: unknown) => asArray(value).flatMap((address) => asString(address) ?? []);
    byName.set(name, { name, ipv4: list(addresses.v4), ipv6: list(addresses.v6) });
  }
  return [...byName.values()];
}

function readDsRecords(secureDns: Json): DelegationSignerRecord[] {
  const number = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);
  return asArray(secureDns.dsData).flatMap((ds) =>
    isObject(ds)
      ? [
          {
            key_tag: number(ds.keyTag),
            algorithm: number(ds.algorithm),
            digest_type: number(ds.digestType),
            digest: asString(ds.digest)?.toUpperCase() ?? null,
          },
        ]
      : [],
  );
}

/** The IANA registrar ID: `publicIds` of the registrar entity, its numeric handle, or the domain's own `publicIds`. */
function ianaRegistrarId(body: Json, entity: Json): string | null {
  const isIanaId = (id: unknown) => isObject(id) && /iana registrar id/i.test(asString(id.type) ?? '');
  const fromEntity = asArray(entity.publicIds).find(isIanaId);
  if (isObject(fromEntity)) return asString(fromEntity.identifier);
  const handle = asString(entity.handle);
  // gTLD registries (Verisign, Uniregistry) use the IANA ID itself as the registrar's handle; a
  // ccTLD's numeric handle (SIDN's "1000") is its own registrar number, not IANA's.
  if (handle && /^\d{1,6}$/.test(handle) && followsIcannProfile(body)) return handle;
  // Namecheap puts it only in the domain's own publicIds, typed with the registrar's name.
  const registrarName = readContact(entity).contact.name?.toLowerCase();
  const fromDomain = asArray(body.publicIds).find(
    (id) =>
      isIanaId(id) ||
      (isObject(id) && registrarName !== undefined && asString(id.type)?.toLowerCase() === registrarName),
  );
  const identifier = isObject(fromDomain) ? asString(fromDomain.identifier) : null;
  return identifier && /^\d{1,6}$/.test(identifier) ? identifier : null;
}

/** The answer declares an ICANN gTLD profile (`icann_rdap_response_profile_*`, `icann_rdap_technical_implementation_guide_*`). */
function followsIcannProfile(body: Json): boolean {
  return asArray(body.rdapConformance).some((value) => typeof value === 'string' && /^icann_rdap_/i.test(value));
}

/**
 * The registrar of record. Most servers name one entity with the registrar role; AFNIC also keeps
 * the former registrar (status "inactive") beside the current one, which it marks with the
 * `sponsor` role as well: the sponsor first, then an entity not marked inactive, then the first.
 */
function registrarEntity(body: Json): Json | undefined {
  const registrars = entitiesWithRole(body, 'registrar');
  const hasRole = (entity: Json, role: string) =>
    asArray(entity.roles).some((r) => typeof r === 'string' && r.toLowerCase() === role);
  const inactive = (entity: Json) =>
    asArray(entity.status).some((s) => typeof s === 'string' && s.toLowerCase() === 'inactive');
  return (
    registrars.find((entity) => hasRole(entity, 'sponsor')) ??
    registrars.find((entity) => !inactive(entity)) ??
    registrars[0]
  );
}

function readRegistrar(body: Json): RegistrarSummary | null {
  const entity = registrarEntity(body);
  if (!entity) return null;
  const { contact } = readContact(entity);
  const [abuse] = [...entitiesWithRole(entity, 'abuse'), ...entitiesWithRole(body, 'abuse')];
  const abuseContact = abuse ? readContact(abuse).contact : null;
  return {
    name: contact.name ?? contact.organization,
    iana_id: ianaRegistrarId(body, entity),
    url: contact.url ?? aboutLink(entity),
    abuse_email: abuseContact?.email ?? null,
    abuse_phone: abuseContact?.phone ?? null,
    handle: asString(entity.handle),
  };
}

function aboutLink(entity: Json): string | null {
  for (const link of asArray(entity.links)) {
    if (isObject(link) && asString(link.rel)?.toLowerCase() === 'about' && asString(link.type) === 'text/html') {
      return asString(link.href);
    }
  }
  return null;
}

/**
 * The contacts by role, redaction respected: fields named by RFC 9537 `redacted` members or
 * carrying a placeholder are listed in `redacted_fields` and published as null. The abuse
 * contact is the domain's, or else the registrar's (where gTLD registries put it).
 */
function readContacts(
  body: Json,
  redacted: Map<ContactRole, Set<ContactField>>,
): Record<ContactRole, WhoisContact | null> {
  const contacts = {} as Record<ContactRole, WhoisContact | null>;
  for (const role of CONTACT_ROLES) {
    let [entity] = entitiesWithRole(body, role);
    if (!entity && role === 'abuse') {
      const registrar = registrarEntity(body);
      [entity] = registrar ? entitiesWithRole(registrar, 'abuse') : [];
    }
    if (!entity) {
      contacts[role] = null;
      continue;
    }
    const { contact, placeholders } = readContact(entity);
    const withheld = new Set<ContactField>([...placeholders, ...(redacted.get(role) ?? [])]);
    const fields = entityRedactedByRemark(entity) && withheld.size === 0 ? new Set<ContactField>(['name']) : withheld;
    contacts[role] = {
      handle: asString(entity.handle),
      name: contact.name,
      organization: contact.organization,
      email: contact.email,
      phone: contact.phone,
      fax: contact.fax,
      street: contact.street,
      city: contact.city,
      region: contact.region,
      postal_code: contact.postal_code,
      country: isoCountry(contact.country),
      redacted_fields: [...fields].sort(),
    };
  }
  return contacts;
}

function entityRedactedByRemark(entity: Json): boolean {
  return asArray(entity.remarks).some(
    (remark) => isObject(remark) && /redacted/i.test(`${asString(remark.title) ?? ''} ${asString(remark.type) ?? ''}`),
  );
}

function registrantRedactedByRemark(body: Json): boolean {
  const [entity] = entitiesWithRole(body, 'registrant');
  return entity ? entityRedactedByRemark(entity) : false;
}

function unicodeFormOf(name: string): string | null {
  const unicode = domainToUnicode(name);
  return unicode && unicode !== name ? unicode : null;
}
