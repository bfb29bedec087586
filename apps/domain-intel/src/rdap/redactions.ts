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

const CONTACT_ROLES: ContactRole[] = ['registrant', 'administrative', 'technical', 'billing'];

/** jCard properties and `adr` components (RFC 6350 §6.3.1 order) that a JSONPath can point at. */
const PROPERTY_FIELDS: Record<string, ContactField> = { fn: 'name', org: 'organization', email: 'email', tel: 'phone' };
const ADDRESS_FIELDS: ContactField[] = ['street', 'street', 'street', 'city', 'region', 'postal_code', 'country'];

/** The contact field a redaction's JSONPath points at (`…[?(@[0]=='fn')][3]`, `…[?(@[0]=='adr')][3][5]`). */
function fieldOfPath(path: string): ContactField | null {
  const component = /@\[0\]==['"]adr['"]\)\]\[3\]\[(:\d|\d)/.exec(path)?.[1];
  if (component !== undefined) {
    return component.startsWith(':') ? 'street' : (ADDRESS_FIELDS[Number(component)] ?? null);
  }
  const phone = /@\[1\]\.type==['"](voice|fax)['"]/.exec(path)?.[1];
  if (phone) return phone === 'fax' ? 'fax' : 'phone';
  const property = /@\[0\]==['"]([a-z-]+)['"]/i.exec(path)?.[1];
  return property ? (PROPERTY_FIELDS[property.toLowerCase()] ?? null) : null;
}

/**
 * The contact roles a redaction's JSONPath selects: one role (`[?(@.roles[0]=='registrant')]`),
 * or every top-level entity (`$.entities[*]`, `$..entities[*]`, RFC 9537 §5.4 and §5.5).
 */
function rolesOfPath(path: string): ContactRole[] {
  const role = /roles\[0\]==['"](\w+)['"]/.exec(path)?.[1];
  if (role) return ROLE_WORDS[role.toLowerCase()] ? [ROLE_WORDS[role.toLowerCase()]!] : [];
  return /^\$\.\.?entities\[\*\]/.test(path) ? CONTACT_ROLES : [];
}

/**
 * Which contact fields the redactions name, by role: the registered names of the RDAP JSON Values
 * registry ("Registrant Name", "Tech Email", …), or else the JSONPath (servers name wildcard
 * redactions freely: "All top level entity Names"). A redaction we cannot place is still in the
 * list of redactions, only not attributed to a field.
 */
export function redactedFieldsByRole(redactions: Redaction[]): Map<ContactRole, Set<ContactField>> {
  const byRole = new Map<ContactRole, Set<ContactField>>();
  const add = (role: ContactRole, field: ContactField) => {
    const fields = byRole.get(role) ?? new Set<ContactField>();
    fields.add(field);
    byRole.set(role, fields);
  };
  for (const redaction of redactions) {
    const match = redaction.name ? REDACTED_NAME.exec(redaction.name.trim()) : null;
    const role = match ? ROLE_WORDS[match[1]!.toLowerCase()] : undefined;
    const field = match ? FIELD_WORDS[match[2]!.toLowerCase().replace(/\s+/g, ' ')] : undefined;
    if (role && field) {
      add(role, field);
      continue;
    }
    const pathField = redaction.path ? fieldOfPath(redaction.path) : null;
    if (!pathField || !redaction.path) continue;
    for (const pathRole of rolesOfPath(redaction.path)) add(pathRole, pathField);
  }
  return byRole;
}
