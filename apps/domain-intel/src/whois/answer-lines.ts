/**
 * A port-43 WHOIS answer (RFC 3912 fixes no format) read into labelled values. Registries lay
 * their answers out in a handful of ways, all read here:
 * - `Label: value` lines (ICANN's gTLD format, RIPE-style `key: value`, tab-aligned `Label:\tvalue`);
 * - a `Label:` line (or a bare `Label` line followed by indented lines) opening a block whose lines
 *   are its values or its own `Label: value` lines (Nominet, SWITCH, EURid, .it), up to a blank line;
 * - a `[Section]` line opening a block (DENIC's `[Tech-C]`), up to a blank line;
 * - `[Label]   value` and `a. [Label]   value` lines (JPRS).
 * Comment lines (`%`, `#`, `>>>`, `*`, JPRS's `[ … ]` banner) are skipped.
 */
export interface AnswerEntry {
  /** The block the line belongs to (normalised like `key`), or null at the top level. */
  section: string | null;
  /** The label, normalised: lowercase, `_`/dots/repeated blanks as one blank, a trailing number dropped (`ns_name_01` → `ns name`). */
  key: string;
  value: string;
}

const COMMENT = /^\s*(%|#|>>>|\*|\[ )/;
const BRACKET_SECTION = /^\[([^\]]{1,40})\]$/;
const BRACKET_LABEL = /^(?:[a-z]\.\s*)?\[([^\]]{1,40})\]\s*(.*)$/;
const LABEL_VALUE = /^([^:\t]{1,60}?)\s*:\s*(.*)$/;
const HOST_AND_ADDRESSES = /^[a-z0-9-]+(\.[a-z0-9-]+)+\.?(\s+[[(]?[0-9a-f.:]+[\])]?)+$/i;

export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[_.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ \d{1,3}$/, '');
}

function indentOf(line: string): number {
  let width = 0;
  for (const char of line) {
    if (char === ' ') width += 1;
    else if (char === '\t') width += 8;
    else break;
  }
  return width;
}

/** `Label: value`, unless the "label" is a URL's scheme or a sentence that happens to hold a colon. */
function labelValue(text: string): { key: string; value: string } | null {
  // A host name followed by its addresses (Nominet: `nom-ns2.nominet.org.uk 195.66.240.250 2a01:40:1001:37::2`,
  // EURid: `ns3.eurid.eu (2001:67c:9c:3937::253)`).
  if (HOST_AND_ADDRESSES.test(text)) return null;
  const match = LABEL_VALUE.exec(text);
  if (!match?.[1] || match[2] === undefined) return null;
  if (match[2].startsWith('//')) return null;
  if (match[1].split(/\s+/).length > 8) return null;
  return { key: normalizeLabel(match[1]), value: match[2].trim() };
}

export function answerEntries(text: string): AnswerEntry[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const entries: AnswerEntry[] = [];
  let section: string | null = null;
  // Indent of the line that opened the block; a `[Section]` block holds lines of any indent (-1).
  let sectionIndent = -1;
  let previous: { entry: AnswerEntry; indent: number } | null = null;
  const push = (entry: AnswerEntry, indent: number) => {
    entries.push(entry);
    previous = entry.value === '' ? null : { entry, indent };
  };
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').replace(/\s+$/, '');
    if (line.trim() === '') {
      section = null;
      previous = null;
      continue;
    }
    if (COMMENT.test(line)) continue;
    const indent = indentOf(line);
    const text = line.trim();
    const bracketSection = BRACKET_SECTION.exec(text);
    if (bracketSection?.[1]) {
      section = normalizeLabel(bracketSection[1]);
      sectionIndent = -1;
      previous = null;
      continue;
    }
    const bracketLabel = BRACKET_LABEL.exec(text);
    if (bracketLabel?.[1] !== undefined) {
      push({ section, key: normalizeLabel(bracketLabel[1]), value: (bracketLabel[2] ?? '').trim() }, indent);
      continue;
    }
    const pair = labelValue(text);
    if (pair) {
      // `Label:` with nothing after it opens a block when the next line belongs to it (indented
      // deeper, or a plain value line); otherwise it is an empty field (.ai's `NIC Handle (if known):`).
      const next = lines[index + 1] ?? '';
      const opensBlock = next.trim() !== '' && (indentOf(next) > indent || labelValue(next.trim()) === null);
      if (pair.value === '' && opensBlock) {
        section = pair.key;
        sectionIndent = indent;
        previous = null;
        continue;
      }
      if (pair.value === '') continue;
      if (section !== null && sectionIndent >= 0 && indent <= sectionIndent) section = null;
      push({ section, key: pair.key, value: pair.value }, indent);
      continue;
    }
    // A line more indented than the `Label: value` above it continues that value (.it addresses).
    const before = previous as { entry: AnswerEntry; indent: number } | null;
    if (before && indent > before.indent) {
      entries.push({ ...before.entry, value: text });
      continue;
    }
    // A bare label whose next line is indented deeper opens a block (.it's `Registrant`, `Nameservers`).
    const next = lines[index + 1];
    if (next !== undefined && next.trim() !== '' && indentOf(next) > indent && text.length <= 60) {
      section = normalizeLabel(text);
      sectionIndent = indent;
      previous = null;
      continue;
    }
    if (section !== null && (sectionIndent < 0 || indent >= sectionIndent)) {
      entries.push({ section: null, key: section, value: text });
      previous = null;
    }
  }
  return entries;
}
