/**
 * Reading contacts out of RDAP entities (RFC 9083 §5.1): jCard (RFC 7095) in `vcardArray`,
 * or JSContact (RFC 9553) in `jscard` as the RDAP JSContact extension carries it.
 */
export type Json = Record<string, unknown>;

export interface Contact {
  name: string | null;
  organization: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  url: string | null;
}

const EMPTY_CONTACT: Contact = { name: null, organization: null, email: null, phone: null, country: null, url: null };

// Placeholders registries put where data is withheld (ICANN Temporary Specification,
// RFC 9537 "replacementValue"); a privacy *service's* own name is real data and kept.
const REDACTION_PLACEHOLDER =
  /^\s*(redacted( for privacy)?|data (is )?(protected|redacted)|not disclosed|non-public data|withheld)\s*\.?\s*$/i;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const asString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export function isRedactionPlaceholder(value: string): boolean {
  return REDACTION_PLACEHOLDER.test(value);
}

/** The entities of `holder` with `role`, searched one level of nesting deep as registries nest them. */
export function entitiesWithRole(holder: Json, role: string): Json[] {
  const found: Json[] = [];
  for (const entity of asArray(holder.entities)) {
    if (!isObject(entity)) continue;
    if (asArray(entity.roles).some((r) => typeof r === 'string' && r.toLowerCase() === role)) found.push(entity);
  }
  return found;
}

/** The contact card of an entity, placeholders read as absent. Also says whether any were found. */
export function readContact(entity: Json): { contact: Contact; placeholders: boolean } {
  const raw = isObject(entity.jscard) ? readJsContact(entity.jscard) : readJCard(entity.vcardArray);
  let placeholders = false;
  const contact = { ...EMPTY_CONTACT };
  for (const key of Object.keys(raw) as (keyof Contact)[]) {
    const value = raw[key];
    if (value !== null && isRedactionPlaceholder(value)) placeholders = true;
    else contact[key] = value;
  }
  return { contact, placeholders };
}

function readJCard(vcardArray: unknown): Contact {
  const contact = { ...EMPTY_CONTACT };
  const [kind, properties] = asArray(vcardArray);
  if (kind !== 'vcard') return contact;
  for (const property of asArray(properties)) {
    const [rawName, params, , ...values] = asArray(property);
    if (typeof rawName !== 'string') continue;
    const name = rawName.toLowerCase();
    const value = values[0];
    const parameters = isObject(params) ? params : {};
    switch (name) {
      case 'fn':
        contact.name ??= asString(value);
        break;
      case 'org':
        contact.organization ??= asString(Array.isArray(value) ? value[0] : value);
        break;
      case 'email':
        contact.email ??= asString(value);
        break;
      case 'tel':
        contact.phone ??= stripUriScheme(asString(value), 'tel:');
        break;
      case 'url':
        contact.url ??= asString(value);
        break;
      case 'adr':
        contact.country ??= asString(parameters.cc) ?? asString(asArray(value)[6]);
        break;
    }
  }
  return contact;
}

function readJsContact(card: Json): Contact {
  const first = (collection: unknown, field: string): string | null => {
    if (!isObject(collection)) return null;
    for (const entry of Object.values(collection)) {
      if (isObject(entry) && asString(entry[field])) return asString(entry[field]);
    }
    return null;
  };
  const name = isObject(card.name)
    ? (asString(card.name.full) ??
      (asArray(card.name.components)
        .map((component) => (isObject(component) ? asString(component.value) : null))
        .filter(Boolean)
        .join(' ') ||
        null))
    : null;
  return {
    name,
    organization: first(card.organizations, 'name'),
    email: first(card.emails, 'address'),
    phone: stripUriScheme(first(card.phones, 'number'), 'tel:'),
    country: first(card.addresses, 'countryCode') ?? first(card.addresses, 'country'),
    url: first(card.links, 'uri'),
  };
}

function stripUriScheme(value: string | null, scheme: string): string | null {
  return value?.toLowerCase().startsWith(scheme) ? value.slice(scheme.length) : value;
}
