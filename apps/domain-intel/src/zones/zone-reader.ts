import { describeReadFailure, MAX_LINE_BYTES, openDecompressed } from './byte-source.ts';
import { ZoneError } from './errors.ts';
import { type NameBatch, NameBatchWriter, namesOf } from './name-batch.ts';
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
   * order (consecutive repeats collapsed), packed as bytes in batches: one async step or one
   * string per name would cost more than reading it (~160 M of them for .com). Throws a ZoneError
   * for a corrupt, truncated or invalid file: callers must not commit anything before this
   * iteration has completed. Iterate only one of `nameBatches`, `batches` and `names`.
   */
  nameBatches: AsyncIterable<NameBatch>;
  /** The same batches as strings. */
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
  const nameBatches = delegatedNames(file, tld, stats);
  const batches = (async function* () {
    for await (const batch of nameBatches) yield namesOf(batch);
  })();
  return {
    stats,
    nameBatches,
    batches,
    names: (async function* () {
      for await (const batch of batches) yield* batch;
    })(),
  };
}

const NEWLINE = 0x0a;

/**
 * Reads the decompressed bytes line by line without decoding them: the fast path reads a line's
 * bytes in place, and only a line it cannot be sure of becomes a string for the full tokenizer.
 */
async function* delegatedNames(file: string, tld: string, stats: ZoneReadStats): AsyncGenerator<NameBatch> {
  const parser = new MasterFileParser(tld === '.' ? '' : tld, stats, file);
  const out = new NameBatchWriter({ foldCase: true });
  const tokenizerBytes = new TokenizerBytes();
  /** The start of a line cut by the chunk edge, waiting for its end. */
  let carry: Buffer | undefined;
  try {
    const source = await openDecompressed(file);
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let failure: unknown;
      try {
        let start = 0;
        if (carry) {
          const end = chunk.indexOf(NEWLINE);
          if (end === -1) {
            carry = Buffer.concat([carry, chunk]);
            if (carry.length > MAX_LINE_BYTES) throw lineTooLong();
            continue;
          }
          const line = Buffer.concat([carry, chunk.subarray(0, end)]);
          carry = undefined;
          parser.bytesLine(line, 0, line.length, tokenizerBytes.reset(line).firstFrom(0) < line.length, out);
          start = end + 1;
        }
        tokenizerBytes.reset(chunk);
        let special = tokenizerBytes.firstFrom(start);
        for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
          if (special < start) special = tokenizerBytes.firstFrom(start);
          parser.bytesLine(chunk, start, end, special < end, out);
          start = end + 1;
        }
        if (start < chunk.length) {
          carry = chunk.subarray(start);
          if (carry.length > MAX_LINE_BYTES) throw lineTooLong();
        }
        parser.releaseChunk();
      } catch (error) {
        failure = error;
      }
      // The names before a bad line still come out first, as they would one at a time.
      if (failure !== undefined || out.full) {
        const batch = out.take();
        if (batch) yield batch;
      }
      if (failure !== undefined) throw failure;
    }
    if (carry) parser.bytesLine(carry, 0, carry.length, tokenizerBytes.reset(carry).firstFrom(0) < carry.length, out);
  } catch (error) {
    const batch = out.take();
    if (batch) yield batch;
    throw describeReadFailure(error, file);
  }
  const batch = out.take();
  if (batch) yield batch;
  parser.finish();
}

function lineTooLong(): ZoneError {
  return new ZoneError('zone_file_invalid', `A line is longer than ${MAX_LINE_BYTES} bytes: this is not a zone file.`);
}

/**
 * A line-at-a-time master-file parser that remembers only what the format carries from line to
 * line: $ORIGIN, the previous owner, and an open parenthesised record.
 */
class MasterFileParser {
  #origin: string;
  #previousOwner: string | undefined;
  /** The previous owner as bytes when the fast path read it: a string only if a later line needs it. */
  #previousOwnerBytes: Buffer | undefined;
  #previousOwnerStart = 0;
  #previousOwnerEnd = 0;
  #pending: string[] | undefined;
  #pendingOwnerOmitted = false;
  #pendingLine = 0;
  /**
   * The last fast-path NS line up to its rdata (`owner. ttl IN NS `) and what its owner came to:
   * a zone lists a delegation's NS records one after the other, so most NS lines repeat the line
   * before them up to the server name and need only that comparison (see #repeatsLastNs).
   */
  #lastNsBytes: Uint8Array | undefined;
  #lastNsStart = 0;
  #lastNsLength = 0;
  #lastNsOutcome: DelegationOutcome = NOT_OURS;
  readonly #suffixText: string;
  readonly #suffix: Uint8Array;

  constructor(
    private readonly tld: string,
    private readonly stats: ZoneReadStats,
    private readonly file: string,
  ) {
    this.#origin = tld;
    // Every name is under the root: its delegations are single labels.
    this.#suffixText = tld === '' ? '' : `.${tld}`;
    this.#suffix = Buffer.from(this.#suffixText, 'latin1');
  }

  /**
   * Reads the line in bytes[start, end) (without its newline), adding what it delegates to `out`.
   * `needsTokenizer`: the line holds a byte only the tokenizer reads right (NEEDS_TOKENIZER).
   */
  bytesLine(bytes: Buffer, start: number, end: number, needsTokenizer: boolean, out: NameBatchWriter): void {
    if (!needsTokenizer && this.#fastLine(bytes, start, end, out)) return;
    const name = this.line(bytes.toString('latin1', start, end));
    if (name !== undefined) out.addString(name);
  }

  /** The chunk the last lines were read from may be reused: keep only what outlives it. */
  releaseChunk(): void {
    if (this.#previousOwnerBytes) this.#previousOwner = this.#ownerFromBytes();
    this.#lastNsBytes = undefined;
  }

  /**
   * The fast path for the line shape nearly every line of a registry's zone has,
   * `owner. [ttl] [IN] type rdata` with an absolute, unescaped owner, on a line without a byte that
   * needs the tokenizer: read in place from the bytes, without a string, a split or a pattern. Returns false
   * when the line is not of that shape (then `line` reads it; nothing has been counted yet).
   */
  #fastLine(bytes: Buffer, lineStart: number, lineEnd: number, out: NameBatchWriter): boolean {
    if (this.#pending) return false;
    if (this.#repeatsLastNs(bytes, lineStart, lineEnd)) return true;
    this.#lastNsBytes = undefined;
    // The owner: printable ASCII up to the first blank, absolute, without escapes.
    let ownerEnd = lineStart;
    for (; ownerEnd < lineEnd; ownerEnd++) {
      const code = bytes[ownerEnd]!;
      if (BYTE_KIND[code] === PLAIN) continue;
      if (code === SPACE || code === TAB) break;
      return false;
    }
    if (ownerEnd === lineStart || ownerEnd === lineEnd || bytes[ownerEnd - 1] !== DOT) return false;
    if (bytes[lineStart] === DOLLAR) return false;
    // Up to two of TTL and class, then the type: each a run of non-blanks.
    let position = ownerEnd;
    let typeStart = -1;
    let typeEnd = -1;
    for (let token = 0; token < 3; token++) {
      while (position < lineEnd && BYTE_KIND[bytes[position]!] === BLANK) position++;
      const start = position;
      while (position < lineEnd && BYTE_KIND[bytes[position]!] !== BLANK) position++;
      if (start === position) return false;
      const first = bytes[start]!;
      if (token < 2 && first >= 0x30 && first <= 0x39 && isAllDigits(bytes, start, position)) continue;
      if (token < 2 && position - start === 2 && (first | 0x20) === 0x69 && (bytes[start + 1]! | 0x20) === 0x6e) {
        continue; // IN
      }
      typeStart = start;
      typeEnd = position;
      break;
    }
    if (typeStart === -1) return false;
    let rdata = typeEnd;
    while (rdata < lineEnd && BYTE_KIND[bytes[rdata]!] === BLANK) rdata++;
    const isNs = typeEnd - typeStart === 2 && isWord(bytes, typeStart, 'ns');
    const isSoa = !isNs && typeEnd - typeStart === 3 && isWord(bytes, typeStart, 'soa');
    if (!isNs && !isSoa && !this.#knownType(bytes, typeStart, typeEnd)) return false;
    if (isNs && rdata === lineEnd) return false; // the slow path reports the missing server

    this.stats.lines++;
    this.stats.records++;
    this.#previousOwner = undefined;
    this.#previousOwnerBytes = bytes;
    this.#previousOwnerStart = lineStart;
    this.#previousOwnerEnd = ownerEnd - 1;
    if (isSoa) {
      if (this.#previous() === this.tld) this.stats.sawApexSoa = true;
    } else if (isNs) {
      this.#lastNsOutcome = this.#delegationBytes(bytes, lineStart, ownerEnd - 1, out);
      this.#lastNsBytes = bytes;
      this.#lastNsStart = lineStart;
      this.#lastNsLength = rdata - lineStart;
    }
    return true;
  }

  /**
   * A line equal to the last fast-path NS line up to that line's rdata, followed by a server name
   * (a non-blank byte), is the same record type of the same owner: counted as that line was, its
   * name already written (the writer drops a repeat anyway), without reading it again.
   */
  #repeatsLastNs(bytes: Buffer, lineStart: number, lineEnd: number): boolean {
    const length = this.#lastNsLength;
    if (this.#lastNsBytes !== bytes || lineEnd - lineStart <= length) return false;
    if (BYTE_KIND[bytes[lineStart + length]!] === BLANK) return false;
    const lastStart = this.#lastNsStart;
    for (let i = length - 1; i >= 0; i--) if (bytes[lineStart + i] !== bytes[lastStart + i]) return false;
    const stats = this.stats;
    stats.lines++;
    stats.records++;
    if (this.#lastNsOutcome === DELEGATED) stats.delegationRecords++;
    else if (this.#lastNsOutcome === SKIPPED) stats.skippedOwners++;
    return true;
  }

  /** The owner of the last fast-path line, lowercase, without the trailing dot. */
  #ownerFromBytes(): string {
    const bytes = this.#previousOwnerBytes!;
    this.#previousOwnerBytes = undefined;
    return bytes.toString('latin1', this.#previousOwnerStart, this.#previousOwnerEnd).toLowerCase();
  }

  /** The owner of the previous record, for a line that omits its own. */
  #previous(): string | undefined {
    if (this.#previousOwnerBytes) this.#previousOwner = this.#ownerFromBytes();
    return this.#previousOwner;
  }

  /** `#delegation` on an owner read in place (absolute, unescaped, printable ASCII). */
  #delegationBytes(bytes: Buffer, start: number, end: number, out: NameBatchWriter): DelegationOutcome {
    const suffix = this.#suffix;
    const labelEnd = end - suffix.length;
    if (labelEnd < start || end === start) return NOT_OURS; // the apex itself, or shorter than the zone's name
    if (suffix.length > 0 && bytes[labelEnd] !== DOT) return NOT_OURS;
    for (let i = 1; i < suffix.length; i++) {
      let code = bytes[labelEnd + i]!;
      if (code >= 0x41 && code <= 0x5a) code |= 0x20;
      if (code !== suffix[i]) return NOT_OURS;
    }
    let valid = labelEnd > start && labelEnd - start <= 63;
    for (let i = start; i < labelEnd; i++) {
      const kind = LABEL_BYTE[bytes[i]!]!;
      if (kind === LABEL_DOT) return NOT_OURS; // a delegation below a second-level name: not ours
      if (kind === 0 || (kind === LABEL_HYPHEN && (i === start || i === labelEnd - 1))) valid = false;
    }
    if (!valid) {
      this.stats.skippedOwners++;
      return SKIPPED;
    }
    this.stats.delegationRecords++;
    out.add(bytes, start, end);
    return DELEGATED;
  }

  /** Whether a type token is a record type, remembered per spelling (a zone has a handful). */
  #knownType(bytes: Buffer, start: number, end: number): boolean {
    const key = end - start <= 6 ? spellingKey(bytes, start, end) : bytes.toString('latin1', start, end);
    let known = this.#typeSpellings.get(key);
    if (known === undefined) {
      known = isRecordType(bytes.toString('latin1', start, end).toUpperCase());
      this.#typeSpellings.set(key, known);
    }
    return known;
  }

  readonly #typeSpellings = new Map<number | string, boolean>();

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
      const previous = this.#previous();
      if (previous === undefined) throw this.#invalid(lineNumber, 'a record without an owner name');
      owner = previous;
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
    this.#previousOwnerBytes = undefined;
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
    if (owner === this.tld || !owner.endsWith(this.#suffixText)) return undefined;
    const label = owner.slice(0, owner.length - this.#suffixText.length);
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

/** What an NS record's owner came to: not a delegation of ours, a skipped owner, a name. */
type DelegationOutcome = 0 | 1 | 2;
const NOT_OURS = 0;
const SKIPPED = 1;
const DELEGATED = 2;

const SPACE = 0x20;
const TAB = 0x09;
const DOT = 0x2e;
const DOLLAR = 0x24;
const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const SEMICOLON = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;

/**
 * Finds the bytes only the tokenizer reads right (quotes, parentheses, comments, escapes) with one
 * native search per kind of byte and chunk, not a JavaScript test per byte: a registry's zone has
 * almost none, so each search runs once over the chunk. Each kind's next position is kept, so a
 * chunk full of them is still searched once per kind.
 */
class TokenizerBytes {
  #buffer: Buffer = Buffer.alloc(0);
  readonly #next = new Int32Array(TOKENIZER_CODES.length);

  reset(buffer: Buffer): this {
    this.#buffer = buffer;
    this.#next.fill(-1);
    return this;
  }

  /** The first position at or after `from` holding one of them, or the buffer's length. */
  firstFrom(from: number): number {
    const buffer = this.#buffer;
    let first = buffer.length;
    for (let kind = 0; kind < TOKENIZER_CODES.length; kind++) {
      let at = this.#next[kind]!;
      if (at < from) {
        at = buffer.indexOf(TOKENIZER_CODES[kind]!, from);
        if (at === -1) at = buffer.length;
        this.#next[kind] = at;
      }
      if (at < first) first = at;
    }
    return first;
  }
}

/**
 * What a byte is to the fast path: part of a token (printable ASCII, or any other byte inside the
 * rdata), a blank, or a byte only the tokenizer reads right (NEEDS_TOKENIZER). An owner must be
 * all PLAIN.
 */
const TOKENIZER_CODES = [QUOTE, OPEN, CLOSE, SEMICOLON, BACKSLASH];
const PLAIN = 0;
const BLANK = 1;
const TOKENIZER = 2;
const OTHER = 3;
const BYTE_KIND = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  if (code === SPACE || code === TAB || code === 0x0d) BYTE_KIND[code] = BLANK;
  else if (code === QUOTE || code === OPEN || code === CLOSE || code === SEMICOLON || code === BACKSLASH) {
    BYTE_KIND[code] = TOKENIZER;
  } else BYTE_KIND[code] = code < 0x21 || code > 0x7e ? OTHER : PLAIN;
}

/** SLD_LABEL by bytes: letters (either case), digits and "_" anywhere; "-" inside only. */
const LABEL_CHAR = 1;
const LABEL_HYPHEN = 2;
const LABEL_DOT = 3;
const LABEL_BYTE = new Uint8Array(256);
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_') {
  LABEL_BYTE[char.charCodeAt(0)] = LABEL_CHAR;
}
LABEL_BYTE[0x2d] = LABEL_HYPHEN;
LABEL_BYTE[DOT] = LABEL_DOT;

function isAllDigits(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = bytes[i]!;
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** Whether bytes[start…] spells `lowerWord` in any case. */
function isWord(bytes: Uint8Array, start: number, lowerWord: string): boolean {
  for (let i = 0; i < lowerWord.length; i++) {
    if ((bytes[start + i]! | 0x20) !== lowerWord.charCodeAt(i)) return false;
  }
  return true;
}

/** Up to six bytes as one exact number (length above them), a Map key without a string. */
function spellingKey(bytes: Uint8Array, start: number, end: number): number {
  let key = end - start;
  for (let i = start; i < end; i++) key = key * 256 + bytes[i]!;
  return key;
}
