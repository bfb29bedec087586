import countries from 'i18n-iso-countries';
import type { WhoisContactField } from './types.ts';

/**
 * Reading contacts out of RDAP entities (RFC 9083 §5.1): jCard (RFC 7095) in `vcardArray`,
 * or JSContact (RFC 9553) as the RDAP JSContact extension carries it: `jscontact_card` in the
 * current draft (draft-ietf-regext-rdap-jscontact; ICANN's reference client reads and writes that
 * member), `jscard` in its earlier revisions. Real servers
 * differ: a vCard may come as an object, a number may be split over several `tel` entries,
 * a country may be a name instead of a code.
 */
export type Json = Record<string, unknown>;

export interface Contact {
  name: string | null;
  organization: string | null;
  email: string | null;
  phone: string | null;
  fax: string | null;
  street: string[];
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  url: string | null;
}

/** The fields of a contact that a server can withhold, by our names. */
export type ContactField = WhoisContactField;

const emptyContact = (): Contact => ({
  name: null,
  organization: null,
  email: null,
  phone: null,
  fax: null,
  street: [],
  city: null,
  region: null,
  postal_code: null,
  country: null,
  url: null,
});

/**
 * Placeholders registries and registrars write where data is withheld (ICANN Temporary
 * Specification, RFC 9537 "replacementValue"), each matched against a whole field value
 * (case-insensitive, surrounding blanks ignored), with where it was seen. A privacy *service's*
 * own name is real data and is not here (see privacy-services.ts). Used by the RDAP and the
 * port-43 WHOIS readers alike.
 */
export const REDACTION_PLACEHOLDERS: readonly { pattern: RegExp; seen_in: string }[] = [
  {
    pattern: /^redacted( for privacy)?( purposes)?\.?$/i,
    seen_in:
      'test/fixtures/real/rdap/ (remark titles of nic.tube, flexireg, zdns, markmonitor …); likexian/whois-parser testdata/noterror/cat_git.cat, top_otto.top',
  },
  {
    pattern: /^redacted \| (eu data subject|eu registrar|registry policy)$/i,
    seen_in:
      'likexian/whois-parser testdata/noterror/cx_git.cx (EU Registrar), ai_google.ai (Registry Policy); whoiser 1.18.0 src/parsers.js noData (EU Data Subject)',
  },
  {
    pattern: /^(gdpr )?(redacted|masked)( for gdpr( privacy)?| by privacy)?$/i,
    seen_in:
      'whoiser 1.18.0 src/parsers.js noData ("gdpr masked", "gdpr redacted", "redacted for gdpr", "redacted by privacy")',
  },
  {
    pattern: /^data (is )?(protected|redacted)(, not disclosed)?\.?$/i,
    seen_in:
      'whoiser 1.18.0 src/parsers.js noData ("data protected", "data redacted", "data protected, not disclosed")',
  },
  {
    pattern: /^not disclosed[!.]?( (- )?visit www\.(eurid\.eu|internet\.ee) for webbased whois\.?)?$/i,
    seen_in:
      'test/fixtures/real/whois/whois.eu/weppos-eu-status_registered.txt ("NOT DISCLOSED!"); likexian/whois-parser testdata/noterror/ee_google.ee.pre',
  },
  {
    pattern: /^hidden!?( details are available at \S+)?$/i,
    seen_in: 'likexian/whois-parser testdata/noterror/by_git.by.pre',
  },
  {
    pattern: /^not shown(, please visit www\.dns\.be for webbased whois\.?)?$/i,
    seen_in: 'test/fixtures/real/whois/whois.dns.be/weppos-be-status_registered.txt',
  },
  {
    pattern:
      /^please query the (rdds|whois) service of the registrar of record identified in this output for information on how to contact the registrant.*$/i,
    seen_in:
      'test/fixtures/real/whois/whois.nic.co/likexian-co-google.co.txt; likexian/whois-parser testdata/noterror/biz_github.biz, scot_gov.scot (Whois service)',
  },
  { pattern: /^statutory masking enabled$/i, seen_in: 'whoiser 1.18.0 src/parsers.js noData' },
  {
    pattern: /^(non-public data|\[non-public data\])$/i,
    seen_in:
      'whoiser 1.18.0 src/parsers.js noData; Donuts notice in test/fixtures/real/whois/whois.nic.io/likexian-io-notfound.txt',
  },
  { pattern: /^withheld$/i, seen_in: 'ICANN Temporary Specification for gTLD Registration Data, Appendix A' },
  { pattern: /^not available( from registry)?$/i, seen_in: 'whoiser 1.18.0 src/parsers.js noData' },
  { pattern: /^n\/a$/i, seen_in: 'whoiser 1.18.0 src/parsers.js noData' },
];

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const asString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export function isRedactionPlaceholder(value: string): boolean {
  const trimmed = value.trim();
  return REDACTION_PLACEHOLDERS.some(({ pattern }) => pattern.test(trimmed));
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

/** The contact card of an entity, placeholders read as absent; `placeholders` names the fields that had one. */
export function readContact(entity: Json): { contact: Contact; placeholders: ContactField[] } {
  const card = [entity.jscontact_card, entity.jscard].find(isObject);
  const raw = card ? readJsContact(card) : readJCard(entity.vcardArray);
  const placeholders: ContactField[] = [];
  const contact = emptyContact();
  for (const key of Object.keys(raw) as (keyof Contact)[]) {
    if (key === 'street') {
      const lines = raw.street.filter((line) => !isRedactionPlaceholder(line));
      if (lines.length < raw.street.length) placeholders.push('street');
      contact.street = lines;
      continue;
    }
    const value = raw[key];
    if (value !== null && isRedactionPlaceholder(value)) {
      if (key !== 'url') placeholders.push(key);
    } else contact[key] = value;
  }
  const country = isoCountry(contact.country);
  // A code outside ISO 3166 (`XX`, `ZZ`) stands where a country was withheld.
  if (contact.country !== null && country === null) placeholders.push('country');
  contact.country = country;
  return { contact, placeholders };
}

/**
 * ISO 3166-1 alpha-2 for what a server wrote: a code in any case (`no` → `NO`), or a name in
 * English (`NORWAY` → `NO`) or in another language (DK Hostmaster writes `Danmark`). Two letters
 * that are no ISO 3166-1 code (`XX`, `ZZ`, the user-assigned range) and redaction placeholders are
 * not a country: null. Any other value (a name in a spelling the table lacks) is kept as written
 * rather than dropped.
 */
export function isoCountry(value: string | null): string | null {
  if (value === null || isRedactionPlaceholder(value)) return null;
  if (/^[a-z]{2}$/i.test(value.trim())) {
    const code = value.trim().toUpperCase();
    // `UK` is reserved in ISO 3166-1 for the United Kingdom, whose code is `GB`.
    if (code === 'UK') return 'GB';
    return countries.isValid(code) ? code : null;
  }
  const english = countries.getAlpha2Code(value, 'en');
  if (english) return english;
  for (const language of countries.langs()) {
    const code = countries.getAlpha2Code(value, language);
    if (code) return code;
  }
  return value;
}

/**
 * `["vcard", [...]]`, or the objects some servers send instead: `{"vcard": [...]}`,
 * `{"0": "vcard", "1": [...]}`, or `["vcard", {"fn": "…", "adr": [{"locality": […], …}]}]` (a map of
 * properties, as DK Hostmaster sends it), turned into jCard properties.
 */
function jCardProperties(vcardArray: unknown): unknown[] {
  if (Array.isArray(vcardArray)) {
    if (vcardArray[0] !== 'vcard') return [];
    return isObject(vcardArray[1]) ? propertiesOfMap(vcardArray[1]) : asArray(vcardArray[1]);
  }
  if (!isObject(vcardArray)) return [];
  if (Array.isArray(vcardArray.vcard)) return vcardArray.vcard;
  return vcardArray['0'] === 'vcard' ? asArray(vcardArray['1']) : [];
}

/** The ADR components by their vCard names (RFC 6350 §6.3.1 order). */
const ADR_COMPONENTS = [
  'post-office-box',
  'extended-address',
  'street-address',
  'locality',
  'region',
  'postal-code',
  'country-name',
] as const;

/** A vCard written as `{property: value | [value, …]}` as jCard properties (`[name, {}, "text", value]`). */
function propertiesOfMap(card: Json): unknown[] {
  const properties: unknown[] = [];
  for (const [name, value] of Object.entries(card)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      const structured = isObject(one) ? ADR_COMPONENTS.map((component) => textOf(one[component]) ?? '') : one;
      properties.push([name, {}, 'text', structured]);
    }
  }
  return properties;
}

function textOf(value: unknown): string | null {
  if (Array.isArray(value)) {
    const parts = value.map((part) => (Array.isArray(part) ? part.join(' ') : part)).filter((part) => asString(part));
    return parts.length > 0 ? asString(parts.join(' ')) : null;
  }
  return asString(value);
}

function typesOf(parameters: Json): string[] {
  const type = parameters.type;
  return (Array.isArray(type) ? type : [type]).flatMap((t) =>
    typeof t === 'string' ? t.toLowerCase().split(',') : [],
  );
}

function readJCard(vcardArray: unknown): Contact {
  const contact = emptyContact();
  for (const property of jCardProperties(vcardArray)) {
    const [rawName, params, , ...values] = asArray(property);
    if (typeof rawName !== 'string') continue;
    // Parameter names are case-insensitive (RFC 6350 §5); Namecheap sends `Type`.
    const parameters = isObject(params)
      ? Object.fromEntries(Object.entries(params).map(([key, param]) => [key.toLowerCase(), param]))
      : {};
    // A structured value is one array; some servers spread it over several values instead.
    const value = values.length > 1 ? values : values[0];
    switch (rawName.toLowerCase()) {
      case 'fn':
        contact.name ??= textOf(value);
        break;
      case 'org':
        contact.organization ??= asString(Array.isArray(value) ? value[0] : value);
        break;
      case 'email':
        contact.email ??= stripUriScheme(textOf(value), 'mailto:');
        break;
      case 'tel': {
        const number = stripUriScheme(stripUriScheme(textOf(value), 'tel:'), 'fax:');
        if (typesOf(parameters).includes('fax')) contact.fax ??= number;
        else contact.phone ??= number;
        break;
      }
      case 'url':
        contact.url ??= asString(value);
        break;
      case 'adr':
        readAddress(contact, value, parameters);
        break;
    }
  }
  return contact;
}

/** RFC 6350 ADR: [post office box, extended, street, locality, region, postal code, country]; or only a `label`. */
function readAddress(contact: Contact, value: unknown, parameters: Json): void {
  let parts = asArray(value);
  // Namecheap leaves out the first two of RFC 6350's seven components: five, [street, locality,
  // region, postal code, country], or four, [street, locality, region, postal code or country
  // code]. Spread them into their RFC 6350 places.
  if (parts.length === 5) {
    parts = ['', '', ...parts];
  } else if (parts.length === 4) {
    const last = textOf(parts[3]);
    const isCountry = last !== null && /^[a-z]{2}$/i.test(last) && countries.isValid(last.toUpperCase());
    parts = ['', '', parts[0], parts[1], parts[2], isCountry ? '' : parts[3], isCountry ? parts[3] : ''];
  }
  const field = (index: number) => textOf(parts[index]);
  if (contact.street.length === 0) {
    const street = parts[2];
    contact.street = (Array.isArray(street) ? street : [street]).flatMap((line) => asString(line) ?? []);
    const extended = field(1);
    if (extended) contact.street.push(extended);
  }
  contact.city ??= field(3);
  contact.region ??= field(4);
  contact.postal_code ??= field(5);
  contact.country ??= asString(parameters.cc) ?? field(6);
  if (contact.street.length === 0 && parts.length === 0) {
    const label = asString(parameters.label);
    if (label) contact.street = label.split('\n').flatMap((line) => asString(line) ?? []);
  }
}

function readJsContact(card: Json): Contact {
  const first = (collection: unknown, field: string, accept: (entry: Json) => boolean = () => true): string | null => {
    if (!isObject(collection)) return null;
    for (const entry of Object.values(collection)) {
      if (isObject(entry) && accept(entry) && asString(entry[field])) return asString(entry[field]);
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
  const isFax = (entry: Json) => isObject(entry.features) && entry.features.fax === true;
  const contact = emptyContact();
  contact.name = name;
  contact.organization = first(card.organizations, 'name');
  contact.email = first(card.emails, 'address');
  contact.phone = stripUriScheme(
    first(card.phones, 'number', (entry) => !isFax(entry)),
    'tel:',
  );
  contact.fax = stripUriScheme(first(card.phones, 'number', isFax), 'tel:');
  contact.url = first(card.links, 'uri');
  const [address] = isObject(card.addresses) ? Object.values(card.addresses).filter(isObject) : [];
  if (address) {
    const components = asArray(address.components).filter(isObject);
    const component = (kind: string) =>
      components.filter((c) => c.kind === kind).flatMap((c) => asString(c.value) ?? []);
    contact.street = [...component('name'), ...component('number')].length
      ? [component('number').concat(component('name')).join(' ')]
      : [];
    contact.city = component('locality')[0] ?? null;
    contact.region = component('region')[0] ?? null;
    contact.postal_code = component('postcode')[0] ?? null;
    contact.country = asString(address.countryCode) ?? component('country')[0] ?? asString(address.country);
  }
  return contact;
}

function stripUriScheme(value: string | null, scheme: string): string | null {
  return value?.toLowerCase().startsWith(scheme) ? value.slice(scheme.length) : value;
}
