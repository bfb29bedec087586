/**
 * A registered port-43 WHOIS answer read into the record the RDAP reader produces (ParsedDomain),
 * with `null` for whatever the answer lacks.
 *
 * Why our own label rules rather than a library: the one well-kept npm parser, `whoiser` (MIT,
 * ~110k downloads a week, 1.18.0 with 2.0 in beta), has a text parser (`parseDomainWhois`) only as
 * an undocumented internal module (`src/parsers.js`); its package entry opens sockets and DNS
 * lookups when loaded. It returns the labels as written, keyed by its own renamings: dates stay
 * unparsed strings, contacts are not split by role, statuses keep their URLs. Every field would
 * still need our rules, plus a dependency on internals. Its list of "no data" values is a good
 * source, and the placeholder table in ../rdap/contacts.ts cites it. So: the labels registries use,
 * per field, as data (record-labels.ts), read off the real answers in test/fixtures/real/whois/.
 */
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { isoCountry, isRedactionPlaceholder } from '../rdap/contacts.ts';
import type { ParsedDomain } from '../rdap/parse.ts';
import { isPrivacyService } from '../rdap/privacy-services.ts';
import { eppStatus, normalizeStatus } from '../rdap/status.ts';
import type {
  ContactRole,
  DelegationSignerRecord,
  NameserverDetail,
  RegistrarSummary,
  WhoisContact,
  WhoisContactField,
} from '../rdap/types.ts';
import { type DateOrder, whoisDate } from './answer-dates.ts';
import type { AnswerEntry } from './answer-lines.ts';
import {
  CONTACT_FIELD_LABELS,
  RECORD_LABELS,
  REGISTRAR_SECTION_LABELS,
  REGISTRAR_SECTIONS,
  ROLE_PREFIXES,
} from './record-labels.ts';

const CONTACT_ROLES: ContactRole[] = ['registrant', 'administrative', 'technical', 'billing', 'abuse'];

/** Blocks that describe a contact or the registrar: their dates and statuses are not the domain's. */
function isDomainLevel(entry: AnswerEntry): boolean {
  const section = entry.section;
  if (section === null) return true;
  if ((REGISTRAR_SECTIONS as readonly string[]).includes(section)) return false;
  if (roleOfSection(section) !== null) return false;
  return !/contact|-c$|holder/.test(section);
}

function roleOfSection(section: string): ContactRole | null {
  for (const [prefix, role] of ROLE_PREFIXES) if (section === prefix) return role;
  return null;
}

/** The values of the first label of `labels` the answer holds (domain level only). */
function valuesOf(entries: AnswerEntry[], labels: readonly string[]): string[] {
  for (const label of labels) {
    const values = entries.filter((entry) => entry.key === label && entry.value !== '' && isDomainLevel(entry));
    if (values.length > 0) return values.map((entry) => entry.value);
  }
  return [];
}

function firstValue(entries: AnswerEntry[], labels: readonly string[]): string | null {
  for (const value of valuesOf(entries, labels)) if (!isRedactionPlaceholder(value)) return value;
  return null;
}

function firstDate(entries: AnswerEntry[], labels: readonly string[], order: DateOrder): string | null {
  for (const label of labels) {
    for (const value of valuesOf(entries, [label])) {
      const date = whoisDate(value, order);
      if (date) return date;
    }
  }
  return null;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** A name as the answer writes it (any case, a trailing dot, Unicode) as lowercase ASCII. */
export function asciiName(value: string): string | null {
  const name = value.trim().split(/\s+/)[0]?.replace(/\.$/, '').toLowerCase() ?? '';
  if (name === '') return null;
  const ascii = domainToASCII(name);
  return ascii !== '' && HOST_NAME.test(ascii) ? ascii : null;
}

/** The names the answer says it is about (`Domain Name:`, `domain:`, `[Domain Name]`, …). */
export function namesInAnswer(entries: AnswerEntry[]): string[] {
  return valuesOf(entries, RECORD_LABELS.domain).flatMap((value) => asciiName(value) ?? []);
}

function readNameservers(entries: AnswerEntry[]): NameserverDetail[] {
  const byName = new Map<string, NameserverDetail>();
  // Every label: .ai names them `Primary Server Hostname`, `Secondary Server Hostname`, ….
  const values = RECORD_LABELS.nameservers.flatMap((label) => valuesOf(entries, [label]));
  for (const value of values) {
    // `ns1.example.com 192.0.2.1 2001:db8::1`, `ns1.example.com [192.0.2.1]` (NASK), `ns1.example.com (192.0.2.1)` (EURid), `ns1.example.com.`
    const [first, ...rest] = value.split(/[\s,]+/).filter(Boolean);
    const name = first ? asciiName(first) : null;
    if (!name) continue;
    const detail = byName.get(name) ?? { name, ipv4: [], ipv6: [] };
    for (const token of rest) {
      const address = token.replace(/^[[(]|[\])]$/g, '');
      if (isIP(address) === 4 && !detail.ipv4.includes(address)) detail.ipv4.push(address);
      if (isIP(address) === 6 && !detail.ipv6.includes(address)) detail.ipv6.push(address);
    }
    byName.set(name, detail);
  }
  return [...byName.values()];
}

/** RDAP's words for the EPP codes whose spelling differs (RFC 8056 §2). */
const RDAP_WORD_OF_EPP: Readonly<Record<string, string>> = { ok: 'active', linked: 'associated' };

function readStatuses(entries: AnswerEntry[]): string[] {
  const statuses: string[] = [];
  for (const value of valuesOf(entries, RECORD_LABELS.status)) {
    // `clientHold https://icann.org/epp#clientHold`, `serverUpdateProhibited (Protected by .auLOCKDOWN)`,
    // JPRS `Connected (2010/09/30)`, .nz `200 Active`: the status without its link, remark or code.
    const withoutLinks = value
      .replace(/\(?https?:\/\/\S+\)?/g, '')
      .replace(/\s*\([^)]*\)\s*$/, '')
      .replace(/^\d{3}\s+/, '');
    for (const part of withoutLinks.split(',')) {
      const text = part.trim().replace(/\.$/, '');
      if (text === '' || /^no .*status.* listed$/i.test(text)) continue;
      const status = normalizeStatus(text);
      const rdap = RDAP_WORD_OF_EPP[status] ?? status;
      if (!statuses.includes(rdap)) statuses.push(rdap);
    }
  }
  return statuses;
}

function readDnssec(entries: AnswerEntry[]): boolean | null {
  for (const value of valuesOf(entries, RECORD_LABELS.dnssec)) {
    const word = value.trim().toLowerCase();
    if (/^(signed ?delegation|signed|yes|y|true|active)$/.test(word)) return true;
    if (/^(unsigned ?delegation|unsigned|no|n|false|inactive|not signed)$/.test(word)) return false;
  }
  return null;
}

function readDsRecords(entries: AnswerEntry[]): DelegationSignerRecord[] {
  return valuesOf(entries, RECORD_LABELS.ds_records).flatMap((value) => {
    const match = /^(\d+)\s+(\d+)\s+(\d+)\s+([0-9a-f\s]+)$/i.exec(value.trim());
    if (!match) return [];
    return [
      {
        key_tag: Number(match[1]),
        algorithm: Number(match[2]),
        digest_type: Number(match[3]),
        digest: (match[4] ?? '').replace(/\s+/g, '').toUpperCase(),
      },
    ];
  });
}

function readRegistrar(entries: AnswerEntry[]): RegistrarSummary | null {
  const inSection = (labels: readonly string[]) => {
    for (const label of labels) {
      const entry = entries.find(
        (candidate) =>
          candidate.section !== null &&
          (REGISTRAR_SECTIONS as readonly string[]).includes(candidate.section) &&
          candidate.key === label,
      );
      if (entry && !isRedactionPlaceholder(entry.value)) return entry.value;
    }
    return null;
  };
  // A `Registrar:` label, a registrar block's `Name:`, or the block's own first line (Nominet, which
  // follows the name with its registrar tag: `… [Tag = MARKMONITOR]`).
  const name = (
    firstValue(entries, RECORD_LABELS.registrar_name) ??
    inSection(REGISTRAR_SECTION_LABELS.name) ??
    firstValue(entries, REGISTRAR_SECTIONS)
  )?.replace(/\s*\[Tag = [^\]]*\]$/, '');
  const ianaId = firstValue(entries, RECORD_LABELS.registrar_iana_id);
  const registrar: RegistrarSummary = {
    name: name && !/^no registrar listed/i.test(name) ? name : null,
    iana_id: ianaId && /^\d{1,6}$/.test(ianaId) ? ianaId : null,
    url: firstValue(entries, RECORD_LABELS.registrar_url) ?? inSection(REGISTRAR_SECTION_LABELS.url),
    abuse_email: firstValue(entries, RECORD_LABELS.registrar_abuse_email),
    abuse_phone: firstValue(entries, RECORD_LABELS.registrar_abuse_phone),
    handle: null,
  };
  return Object.values(registrar).some((value) => value !== null) ? registrar : null;
}

type ContactDraft = { [K in keyof WhoisContact]: WhoisContact[K] };

function emptyContact(): ContactDraft {
  return {
    handle: null,
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
    redacted_fields: [],
  };
}

/** `registrant name` → [registrant, name]; `name` inside a `[Tech-C]` block → [technical, name]. */
function contactField(entry: AnswerEntry): [ContactRole, keyof typeof CONTACT_FIELD_LABELS] | null {
  const fieldOf = (label: string) => {
    for (const [field, labels] of Object.entries(CONTACT_FIELD_LABELS)) {
      if ((labels as readonly string[]).includes(label)) return field as keyof typeof CONTACT_FIELD_LABELS;
    }
    return null;
  };
  const sectionRole = entry.section === null ? null : roleOfSection(entry.section);
  if (sectionRole) {
    const field = fieldOf(entry.key);
    return field ? [sectionRole, field] : null;
  }
  for (const [prefix, role] of ROLE_PREFIXES) {
    if (!entry.key.startsWith(`${prefix} `)) continue;
    const field = fieldOf(entry.key.slice(prefix.length + 1).replace(/ \d+$/, ''));
    if (field) return [role, field];
  }
  return null;
}

function readContacts(entries: AnswerEntry[]): Record<ContactRole, WhoisContact | null> {
  const drafts = new Map<ContactRole, { contact: ContactDraft; redacted: Set<WhoisContactField> }>();
  const draftOf = (role: ContactRole) => {
    let draft = drafts.get(role);
    if (!draft) {
      draft = { contact: emptyContact(), redacted: new Set() };
      drafts.set(role, draft);
    }
    return draft;
  };
  for (const entry of entries) {
    const found = contactField(entry);
    if (!found) continue;
    const [role, field] = found;
    const draft = draftOf(role);
    const value = entry.value.trim();
    if (value === '') continue;
    if (isRedactionPlaceholder(value)) {
      if (field !== 'handle') draft.redacted.add(field);
      continue;
    }
    if (field === 'street') draft.contact.street.push(value);
    else if (field === 'country') {
      const country = isoCountry(value);
      if (country === null) draft.redacted.add('country');
      draft.contact.country ??= country;
    } else draft.contact[field] ??= value;
  }
  // The registrar's abuse contact is the record's abuse contact, as in the RDAP reader.
  const abuseEmail = firstValue(entries, RECORD_LABELS.registrar_abuse_email);
  const abusePhone = firstValue(entries, RECORD_LABELS.registrar_abuse_phone);
  if (!drafts.has('abuse') && (abuseEmail || abusePhone)) {
    const draft = draftOf('abuse');
    draft.contact.email = abuseEmail;
    draft.contact.phone = abusePhone;
  }
  // A contact block holding only a placeholder (EURid's `Registrant:` / `NOT DISCLOSED!`) is a withheld contact.
  for (const entry of entries) {
    if (entry.section !== null || !isRedactionPlaceholder(entry.value)) continue;
    const role = roleOfSection(entry.key);
    if (role) draftOf(role).redacted.add('name');
  }
  const contacts = {} as Record<ContactRole, WhoisContact | null>;
  for (const role of CONTACT_ROLES) {
    const draft = drafts.get(role);
    const hasData =
      draft &&
      (draft.redacted.size > 0 ||
        Object.entries(draft.contact).some(([, value]) => (Array.isArray(value) ? value.length > 0 : value !== null)));
    contacts[role] =
      draft && hasData
        ? { ...draft.contact, redacted_fields: [...draft.redacted].sort() as WhoisContactField[] }
        : null;
  }
  return contacts;
}

/** AFNIC heads its answers with the date format it uses (`complete date format : DD/MM/YYYY`). */
function dateOrder(text: string): DateOrder {
  return /date format\s*:\s*DD\/MM\/YYYY/i.test(text) ? 'day-first' : null;
}

/** Reads a registered answer about `name` (lowercase ASCII). */
export function readWhoisRecord(entries: AnswerEntry[], name: string, text: string): ParsedDomain {
  const order = dateOrder(text);
  const nameserverDetails = readNameservers(entries);
  const status = readStatuses(entries);
  const contacts = readContacts(entries);
  const registrant = contacts.registrant;
  const dnssec = readDnssec(entries);
  const unicode = domainToUnicode(name);
  return {
    domain: name,
    unicode_name: unicode && unicode !== name ? unicode : null,
    registered: true,
    registrar: readRegistrar(entries),
    created_at: firstDate(entries, RECORD_LABELS.created, order),
    updated_at: firstDate(entries, RECORD_LABELS.updated, order),
    expires_at: firstDate(entries, RECORD_LABELS.expires, order),
    nameservers: nameserverDetails.map((nameserver) => nameserver.name),
    status,
    dnssec,
    registrant: registrant
      ? {
          name: registrant.name,
          organization: registrant.organization,
          email: registrant.email,
          country: registrant.country,
          redacted: registrant.redacted_fields.length > 0,
        }
      : null,
    registry_domain_id: firstValue(entries, RECORD_LABELS.registry_domain_id),
    transferred_at: firstDate(entries, RECORD_LABELS.transferred, order),
    status_epp: status.map(eppStatus),
    nameserver_details: nameserverDetails,
    dnssec_details: { delegation_signed: dnssec, ds_records: readDsRecords(entries) },
    contacts,
    redactions: [],
    privacy_service: registrant ? isPrivacyService(registrant.name, registrant.organization) : false,
  };
}
