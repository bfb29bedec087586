import { domainToUnicode } from 'node:url';
import { asArray, asString, entitiesWithRole, isObject, type Json, readContact } from './contacts.ts';
import type { WhoisRecord } from './types.ts';

/** The registry's answer read into our record, before any registrar data is merged in. */
export type ParsedDomain = Omit<WhoisRecord, 'rdap_sources' | 'missing' | 'fetched_at'>;

export class MalformedRdapError extends Error {}

/**
 * Reads an RFC 9083 domain object. Registries differ in what they fill in; anything absent
 * is null, and only a body that is not a domain object at all is refused.
 */
export function parseDomainObject(body: Json, requestedName: string): ParsedDomain {
  const objectClass = asString(body.objectClassName)?.toLowerCase();
  if (objectClass !== 'domain' && !(objectClass === null && asString(body.ldhName))) {
    throw new MalformedRdapError('The RDAP response is not a domain object.');
  }
  return {
    domain: requestedName,
    // Registries often omit unicodeName for IDNs; the punycode name gives it exactly.
    unicode_name: asString(body.unicodeName) ?? unicodeFormOf(requestedName),
    registered: true,
    registrar: readRegistrar(body),
    created_at: eventDate(body, 'registration'),
    updated_at: eventDate(body, 'last changed'),
    expires_at: eventDate(body, 'expiration'),
    nameservers: readNameservers(body),
    status: asArray(body.status).flatMap((status) => (typeof status === 'string' ? [normalizeStatus(status)] : [])),
    dnssec:
      isObject(body.secureDNS) && typeof body.secureDNS.delegationSigned === 'boolean'
        ? body.secureDNS.delegationSigned
        : null,
    registrant: readRegistrant(body),
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
 * (registrant, registrar contacts).
 */
export function mergeRegistrarRecord(registry: ParsedDomain, registrar: ParsedDomain): ParsedDomain {
  const fromRegistry = registry.registrar;
  const fromRegistrar = registrar.registrar;
  const mergedRegistrar =
    fromRegistry && fromRegistrar
      ? {
          name: fromRegistry.name ?? fromRegistrar.name,
          iana_id: fromRegistry.iana_id ?? fromRegistrar.iana_id,
          url: fromRegistry.url ?? fromRegistrar.url,
          abuse_email: fromRegistry.abuse_email ?? fromRegistrar.abuse_email,
          abuse_phone: fromRegistry.abuse_phone ?? fromRegistrar.abuse_phone,
        }
      : (fromRegistry ?? fromRegistrar);
  return {
    ...registry,
    unicode_name: registry.unicode_name ?? registrar.unicode_name,
    registrar: mergedRegistrar,
    created_at: registry.created_at ?? registrar.created_at,
    updated_at: registry.updated_at ?? registrar.updated_at,
    expires_at: registry.expires_at ?? registrar.expires_at,
    dnssec: registry.dnssec ?? registrar.dnssec,
    registrant: preferRegistrant(registry.registrant, registrar.registrant),
  };
}

function preferRegistrant(registry: WhoisRecord['registrant'], registrar: WhoisRecord['registrant']) {
  if (!registry) return registrar;
  if (!registrar) return registry;
  const filled = (r: NonNullable<WhoisRecord['registrant']>) =>
    [r.name, r.organization, r.email, r.country].filter((value) => value !== null).length;
  return filled(registrar) > filled(registry) ? registrar : registry;
}

/** `clientTransferProhibited` (EPP spelling some servers send) → `client transfer prohibited` (RFC 8056). */
export function normalizeStatus(status: string): string {
  return status
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

function eventDate(body: Json, action: string): string | null {
  for (const event of asArray(body.events)) {
    if (!isObject(event) || asString(event.eventAction)?.toLowerCase() !== action) continue;
    const date = asString(event.eventDate);
    const time = date ? Date.parse(date) : Number.NaN;
    if (!Number.isNaN(time)) return new Date(time).toISOString();
  }
  return null;
}

function readNameservers(body: Json): string[] {
  const names = new Set<string>();
  for (const nameserver of asArray(body.nameservers)) {
    if (!isObject(nameserver)) continue;
    const name = asString(nameserver.ldhName) ?? asString(nameserver.unicodeName);
    if (name) names.add(name.toLowerCase().replace(/\.$/, ''));
  }
  return [...names];
}

function readRegistrar(body: Json): WhoisRecord['registrar'] {
  const [entity] = entitiesWithRole(body, 'registrar');
  if (!entity) return null;
  const { contact } = readContact(entity);
  const ianaId = asArray(entity.publicIds).find(
    (id) => isObject(id) && asString(id.type)?.toLowerCase() === 'iana registrar id',
  );
  const [abuse] = [...entitiesWithRole(entity, 'abuse'), ...entitiesWithRole(body, 'abuse')];
  const abuseContact = abuse ? readContact(abuse).contact : null;
  return {
    name: contact.name ?? contact.organization,
    iana_id: isObject(ianaId) ? asString(ianaId.identifier) : null,
    url: contact.url ?? aboutLink(entity),
    abuse_email: abuseContact?.email ?? null,
    abuse_phone: abuseContact?.phone ?? null,
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
 * The registrant, with redaction respected: RFC 9537 `redacted` members naming registrant
 * fields, placeholder values, or a "REDACTED FOR PRIVACY" remark mark the record redacted,
 * and withheld fields are null. No registrant entity at all gives null.
 */
function readRegistrant(body: Json): WhoisRecord['registrant'] {
  const [entity] = entitiesWithRole(body, 'registrant');
  if (!entity) return null;
  const { contact, placeholders } = readContact(entity);
  const redactedByExtension = asArray(body.redacted).some((member) => {
    if (!isObject(member) || !isObject(member.name)) return false;
    const description = asString(member.name.type) ?? asString(member.name.description) ?? '';
    return /registrant/i.test(description);
  });
  const redactedByRemark = asArray(entity.remarks).some(
    (remark) => isObject(remark) && /redacted/i.test(`${asString(remark.title) ?? ''} ${asString(remark.type) ?? ''}`),
  );
  return {
    name: contact.name,
    organization: contact.organization,
    email: contact.email,
    country: contact.country && /^[a-z]{2}$/i.test(contact.country) ? contact.country.toUpperCase() : contact.country,
    redacted: placeholders || redactedByExtension || redactedByRemark,
  };
}

function unicodeFormOf(name: string): string | null {
  const unicode = domainToUnicode(name);
  return unicode && unicode !== name ? unicode : null;
}
