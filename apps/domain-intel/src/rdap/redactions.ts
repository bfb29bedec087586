import { asArray, asString, type ContactField, isObject, type Json } from './contacts.ts';
import type { ContactRole, Redaction } from './types.ts';

/** The RFC 9537 `redacted` members of an answer, in a flat form. */
export function readRedactions(body: Json): Redaction[] {
  return asArray(body.redacted).flatMap((member) => {
    if (!isObject(member)) return [];
    const text = (value: unknown) =>
      isObject(value) ? (asString(value.type) ?? asString(value.description)) : asString(value);
    return [
      {
        name: text(member.name),
        path: asString(member.prePath) ?? asString(member.path) ?? asString(member.postPath),
        method: asString(member.method) ?? 'removal',
        reason: text(member.reason),
      },
    ];
  });
}

const ROLE_WORDS: Record<string, ContactRole> = {
  registrant: 'registrant',
  tech: 'technical',
  technical: 'technical',
  admin: 'administrative',
  administrative: 'administrative',
  billing: 'billing',
};

const FIELD_WORDS: Record<string, ContactField> = {
  name: 'name',
  organization: 'organization',
  organisation: 'organization',
  street: 'street',
  city: 'city',
  'state/province': 'region',
  province: 'region',
  state: 'region',
  'postal code': 'postal_code',
  country: 'country',
  phone: 'phone',
  'phone ext': 'phone',
  fax: 'fax',
  'fax ext': 'fax',
  email: 'email',
};

const REDACTED_NAME = /^(registrant|tech(?:nical)?|admin(?:istrative)?|billing)\s+(.+)$/i;

/**
 * Which contact fields the redactions name, by role: the registered names of the RDAP JSON Values
 * registry ("Registrant Name", "Tech Email", …). A name we cannot place is still in the list of
 * redactions, only not attributed to a field.
 */
export function redactedFieldsByRole(redactions: Redaction[]): Map<ContactRole, Set<ContactField>> {
  const byRole = new Map<ContactRole, Set<ContactField>>();
  for (const redaction of redactions) {
    const match = redaction.name ? REDACTED_NAME.exec(redaction.name.trim()) : null;
    if (!match) continue;
    const role = ROLE_WORDS[match[1]!.toLowerCase()];
    const field = FIELD_WORDS[match[2]!.toLowerCase().replace(/\s+/g, ' ')];
    if (!role || !field) continue;
    const fields = byRole.get(role) ?? new Set<ContactField>();
    fields.add(field);
    byRole.set(role, fields);
  }
  return byRole;
}
