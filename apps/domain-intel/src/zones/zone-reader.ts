import { describeReadFailure, openDecompressed, splitLines } from './byte-source.ts';
import { ZoneError } from './errors.ts';
import { isRecordType } from './rr-types.ts';

/** What a pass over a zone file saw; complete once the name iteration has finished. */
export interface ZoneReadStats {
  lines: number;
  records: number;
  /** NS records owned by a second-level name (before de-duplication). */
  delegationRecords: number;
  /** NS owners under the TLD that are not plain second-level host names (escapes, wildcards). */
  skippedOwners: number;
  sawApexSoa: boolean;
}

export interface ZoneScan {
  /**
   * The second-level names delegated with NS records, lowercase, without trailing dot, in file
   * order (consecutive repeats collapsed), in batches: one async step per name would cost more
   * than reading it (~160 M of them for .com). Throws a ZoneError for a corrupt, truncated or
   * invalid file: callers must not commit anything before this iteration has completed.
   */
  batches: AsyncIterable<string[]>;
  /** The same names one at a time, for small files and tests. */
  names: AsyncIterable<string>;
  stats: ZoneReadStats;
}

const TTL_TOKEN = /^\d+[smhdw]?(?:\d+[smhdw])*$/i;
const CLASS_TOKEN = /^(?:in|ch|hs|cs|class\d+)$/i;
const SLD_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
/** Lines holding any of these need the full tokenizer; the rest are split on blanks. */
const NEEDS_TOKENIZER = /["();\\]/;

/**
 * Reads the delegations of a master file (RFC 1035 §5) for `tld`, gzip or plain, streaming. The
 * root zone is `tld` "" (or "."): its delegations are the TLDs.
 */
export function readZoneFile(file: string, tld: string): ZoneScan {
  const stats: ZoneReadStats = { lines: 0, records: 0, delegationRecords: 0, skippedOwners: 0, sawApexSoa: false };
  const batches = delegatedNames(file, tld, stats);
  return {
    stats,
    batches,
    names: (async function* () {
      for await (const batch of batches) yield* batch;
    })(),
  };
}

async function* delegatedNames(file: string, tld: string, stats: ZoneReadStats): AsyncGenerator<string[]> {
  const parser = new MasterFileParser(tld === '.' ? '' : tld, stats, file);
  let lastYielded = '';
  try {
    const source = await openDecompressed(file);
    for await (const lines of splitLines(source)) {
      const batch: string[] = [];
      let failure: unknown;
      try {
        for (const line of lines) {
          const name = parser.simpleLine(line) ?? parser.line(line);
          if (name !== undefined && name !== NOTHING && name !== lastYielded) {
            lastYielded = name;
            batch.push(name);
          }
        }
      } catch (error) {
        failure = error;
      }
      // The names before a bad line still come out first, as they would one at a time.
      if (batch.length > 0) yield batch;
      if (failure !== undefined) throw failure;
    }
  } catch (error) {
    throw describeReadFailure(error, file);
  }
  parser.finish();
}

/** What `simpleLine` returns for a line it read completely that delegates nothing. */
const NOTHING = '\0';

/**
 * A line-at-a-time master-file parser that remembers only what the format carries from line to
 * line: $ORIGIN, the previous owner, and an open parenthesised record.
 */
class MasterFileParser {
  #origin: string;
  #previousOwner: string | undefined;
  #pending: string[] | undefined;
  #pendingOwnerOmitted = false;
  #pendingLine = 0;
  readonly #suffix: string;

  constructor(
    private readonly tld: string,
    private readonly stats: ZoneReadStats,
    private readonly file: string,
  ) {
    this.#origin = tld;
    // Every name is under the root: its delegations are single labels.
    this.#suffix = tld === '' ? '' : `.${tld}`;
  }

  /**
   * The fast path for the line shape nearly every line of a registry's zone has,
   * `owner. [ttl] [IN] type rdata` with an absolute, unescaped owner and nothing that needs the
   * tokenizer: read with character codes, without splitting the line or testing patterns. Returns
   * the delegated name, NOTHING for a line read that delegates nothing, or undefined when the
   * line is not of that shape (then `line` reads it; nothing has been counted yet).
   */
  simpleLine(text: string): string | undefined {
    if (this.#pending) return undefined;
    const length = text.length;
    // The owner: printable ASCII up to the first blank, absolute, without escapes.
    let ownerEnd = 0;
    let upper = false;
    for (; ownerEnd < length; ownerEnd++) {
      const code = text.charCodeAt(ownerEnd);
      if (code === SPACE || code === TAB) break;
      if (code < 0x21 || code > 0x7e || code === BACKSLASH || code === QUOTE || code === SEMICOLON) return undefined;
      if (code === OPEN || code === CLOSE) return undefined;
      if (code >= 0x41 && code <= 0x5a) upper = true;
    }
    if (ownerEnd === 0 || ownerEnd === length || text.charCodeAt(ownerEnd - 1) !== DOT) return undefined;
    if (text.charCodeAt(0) === DOLLAR) return undefined;
    // Up to two of TTL and class, then the type: each a run of non-blanks.
    let position = ownerEnd;
    let typeStart = -1;
    let typeEnd = -1;
    for (let token = 0; token < 3; token++) {
      while (position < length && isBlank(text.charCodeAt(position))) position++;
      const start = position;
      while (position < length && !isBlank(text.charCodeAt(position))) position++;
      if (start === position) return undefined;
      const first = text.charCodeAt(start);
      if (token < 2 && first >= 0x30 && first <= 0x39 && isAllDigits(text, start, position)) continue;
      if (
        token < 2 &&
        position - start === 2 &&
        (first | 0x20) === 0x69 &&
        (text.charCodeAt(start + 1) | 0x20) === 0x6e
      ) {
        continue; // IN
      }
      typeStart = start;
      typeEnd = position;
      break;
    }
    if (typeStart === -1) return undefined;
    // Anything the tokenizer must see (quotes, parentheses, comments, escapes) sends the whole line there.
    if (NEEDS_TOKENIZER.test(text)) return undefined;
    let rdata = typeEnd;
    while (rdata < length && isBlank(text.charCodeAt(rdata))) rdata++;
    const isNs = typeEnd - typeStart === 2 && isWord(text, typeStart, 'ns');
    const isSoa = !isNs && typeEnd - typeStart === 3 && isWord(text, typeStart, 'soa');
    if (!isNs && !isSoa && !this.#knownType(text.slice(typeStart, typeEnd))) return undefined;
    if (isNs && rdata === length) return undefined; // the slow path reports the missing server

    this.stats.lines++;
    this.stats.records++;
    const raw = text.slice(0, ownerEnd - 1);
    const owner = upper ? raw.toLowerCase() : raw;
    this.#previousOwner = owner;
    if (isSoa) {
      if (owner === this.tld) this.stats.sawApexSoa = true;
      return NOTHING;
    }
    if (!isNs) return NOTHING;
    return this.#delegation(owner) ?? NOTHING;
  }

  /** Whether a type token is a record type, remembered per spelling (a zone has a handful). */
  #knownType(token: string): boolean {
    let known = this.#typeSpellings.get(token);
    if (known === undefined) {
      known = isRecordType(token.toUpperCase());
      this.#typeSpellings.set(token, known);
    }
    return known;
  }

  readonly #typeSpellings = new Map<string, boolean>();

  /** Feeds one physical line; returns the delegated name it completes, if any. */
  line(raw: string): string | undefined {
    const lineNumber = ++this.stats.lines;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (this.#pending) {
      const { tokens, depth } = tokenize(text, this.#pending, 1);
      if (depth > 0) return undefined;
      this.#pending = undefined;
      return this.#entry(tokens, this.#pendingOwnerOmitted, this.#pendingLine);
    }
    const ownerOmitted = text.length > 0 && (text[0] === ' ' || text[0] === '\t');
    if (!NEEDS_TOKENIZER.test(text)) {
      const tokens = text.split(/[ \t]+/);
      if (tokens[0] === '') tokens.shift();
      if (tokens.length > 0 && tokens[tokens.length - 1] === '') tokens.pop();
      return tokens.length === 0 ? undefined : this.#entry(tokens, ownerOmitted, lineNumber);
    }
    const { tokens, depth } = tokenize(text, [], 0);
    if (depth > 0) {
      this.#pending = tokens;
      this.#pendingOwnerOmitted = ownerOmitted;
      this.#pendingLine = lineNumber;
      return undefined;
    }
    return tokens.length === 0 ? undefined : this.#entry(tokens, ownerOmitted, lineNumber);
  }

  /** Checks what can only be judged at the end of the file. */
  finish(): void {
    if (this.#pending) {
      throw new ZoneError(
        'zone_file_truncated',
        `${this.file} ends inside the parenthesised record that starts on line ${this.#pendingLine}.`,
      );
    }
    if (!this.stats.sawApexSoa) {
      throw new ZoneError(
        'zone_file_invalid',
        `${this.file} has no SOA record for "${this.tld}.": it is not that zone's file, or it is cut off.`,
      );
    }
  }

  #entry(tokens: string[], ownerOmitted: boolean, lineNumber: number): string | undefined {
    const first = tokens[0]!;
    if (!ownerOmitted && first[0] === '$') return this.#directive(tokens, lineNumber);

    let index = 0;
    let owner: string;
    if (ownerOmitted) {
      if (this.#previousOwner === undefined) throw this.#invalid(lineNumber, 'a record without an owner name');
      owner = this.#previousOwner;
    } else {
      owner = this.#absolute(first, lineNumber);
      index = 1;
    }
    // RFC 1035 allows TTL and class in either order, each at most once, before the type.
    for (let seen = 0; seen < 2 && index < tokens.length; seen++) {
      const token = tokens[index]!;
      if (TTL_TOKEN.test(token) || CLASS_TOKEN.test(token)) index++;
      else break;
    }
    const upperType = tokens[index]?.toUpperCase();
    if (upperType === undefined || !isRecordType(upperType)) throw this.#invalid(lineNumber, 'no record type');
    this.#previousOwner = owner;
    this.stats.records++;

    if (upperType === 'SOA') {
      if (owner === this.tld) this.stats.sawApexSoa = true;
      return undefined;
    }
    if (upperType !== 'NS') return undefined;
    // A delegation names its server; one that does not is a file cut off mid-record (seen in a
    // real copy of the root zone), and its name must not be taken as delegated.
    if (tokens.length <= index + 1) {
      throw this.#invalid(lineNumber, 'an NS record without its name server (the file may be cut off)');
    }
    return this.#delegation(owner);
  }

  /** The owner of an NS record when it is a second-level name of this zone we can take. */
  #delegation(owner: string): string | undefined {
    if (owner === this.tld || !owner.endsWith(this.#suffix)) return undefined;
    const label = owner.slice(0, owner.length - this.#suffix.length);
    const escaped = label.includes('\\');
    if (!escaped && label.includes('.')) return undefined; // a delegation below a second-level name: not ours
    if (escaped || !SLD_LABEL.test(label)) {
      this.stats.skippedOwners++;
      return undefined;
    }
    this.stats.delegationRecords++;
    return owner;
  }

  #directive(tokens: string[], lineNumber: number): undefined {
    const name = tokens[0]!.toUpperCase();
    if (name === '$ORIGIN') {
      const origin = tokens[1];
      if (origin === undefined || !origin.endsWith('.')) {
        throw this.#invalid(lineNumber, '$ORIGIN needs an absolute name (ending with ".")');
      }
      this.#origin = this.#absolute(origin, lineNumber);
      return undefined;
    }
    if (name === '$TTL') return undefined;
    if (name === '$INCLUDE' || name === '$GENERATE') {
      throw this.#invalid(lineNumber, `${name} is not supported in zone files fed to the importer`);
    }
    throw this.#invalid(lineNumber, `unknown directive ${tokens[0]}`);
  }

  /** Owner as a lowercase absolute name without the trailing dot; the root is "". */
  #absolute(name: string, lineNumber: number): string {
    if (!PRINTABLE_ASCII.test(name)) throw this.#invalid(lineNumber, 'an owner name with non-ASCII bytes');
    if (name === '@') return this.#origin;
    const lower = name.toLowerCase();
    if (lower.endsWith('.')) return lower.slice(0, -1);
    return this.#origin === '' ? lower : `${lower}.${this.#origin}`;
  }

  #invalid(lineNumber: number, what: string): ZoneError {
    return new ZoneError(
      'zone_file_invalid',
      `${this.file} line ${lineNumber}: ${what}; this is not a valid zone file.`,
      {
        details: { line: lineNumber },
      },
    );
  }
}

/**
 * Splits one line into tokens, honouring quoted strings, `;` comments and the parentheses that
 * continue a record over several lines (which count as blanks).
 */
function tokenize(text: string, into: string[], depthIn: number): { tokens: string[]; depth: number } {
  let depth = depthIn;
  let current = '';
  let inQuote = false;
  const flush = () => {
    if (current.length > 0) into.push(current);
    current = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (inQuote) {
      current += char;
      if (char === '\\' && i + 1 < text.length) current += text[++i];
      else if (char === '"') inQuote = false;
    } else if (char === '\\' && i + 1 < text.length) {
      current += char + text[++i];
    } else if (char === '"') {
      current += char;
      inQuote = true;
    } else if (char === ';') {
      break;
    } else if (char === '(') {
      flush();
      depth++;
    } else if (char === ')') {
      flush();
      depth = Math.max(0, depth - 1);
    } else if (char === ' ' || char === '\t') {
      flush();
    } else {
      current += char;
    }
  }
  flush();
  return { tokens: into, depth };
}

const SPACE = 0x20;
const TAB = 0x09;
const DOT = 0x2e;
const DOLLAR = 0x24;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === 0x0d;
}

function isAllDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** Whether text[start…] spells `lowerWord` in any case. */
function isWord(text: string, start: number, lowerWord: string): boolean {
  for (let i = 0; i < lowerWord.length; i++) {
    if ((text.charCodeAt(start + i) | 0x20) !== lowerWord.charCodeAt(i)) return false;
  }
  return true;
}
