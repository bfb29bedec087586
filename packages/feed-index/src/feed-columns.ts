import { FlagColumn } from './flag-column.ts';
import { LabelOffsets, type LabelOffsetsState, MOST_LABEL_BYTES } from './label-offsets.ts';
import { STATUS_CODES } from './statuses.ts';
import { TimeColumn, type TimeColumnState } from './time-column.ts';

/**
 * The feed's filter and sort columns held in typed arrays, one entry per row, rows in the
 * database's own `domain` order (so a row's position is its domain rank and breaks ties exactly
 * as `ORDER BY … , domain` does). About 21 bytes a row once grouped (the times as 4-byte codes,
 * the 0/1 columns as bits, the label starts as 2-byte distances) plus the labels' text (a domain
 * is its label, a dot and its TLD: only the label is kept, the TLD is the row's TLD code).
 *
 * To add a column: a field here, its line in `FeedColumnRow`, one line in `set`, and (for a
 * filter) its entry in filters.ts FEED_FILTERS.
 */
export interface FeedColumnRow {
  domain: string;
  tld: string;
  status: string;
  dropped_at: number | null;
  first_archived_at: number | null;
  alt_tld_count: number | null;
  da: number | null;
  tf: number | null;
  length: number;
  has_hyphen: number;
  has_digit: number;
  expected_drop_at: number | null;
}

/** The columns FeedColumns reads from feed_domains, in FeedColumnRow's names. */
export const FEED_COLUMN_NAMES = [
  'domain',
  'tld',
  'status',
  'dropped_at',
  'first_archived_at',
  'alt_tld_count',
  'da',
  'tf',
  'length',
  'has_hyphen',
  'has_digit',
  'expected_drop_at',
] as const satisfies readonly (keyof FeedColumnRow)[];

/** A column value as a database driver gives it (Postgres may give int8 columns as strings), NULL as null. */
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** NULL of the small integer columns. */
export const NO_VALUE = -1;

/**
 * FeedColumns as plain data (typed arrays, numbers, strings): what crosses to and from the
 * index build's worker thread, the typed arrays' buffers transferred rather than copied.
 */
export interface FeedColumnsState {
  size: number;
  status: Uint8Array;
  tld: Uint8Array | Uint16Array;
  tlds: string[];
  droppedAt: TimeColumnState;
  firstArchivedAt: TimeColumnState;
  altTldCount: Int8Array | Int16Array;
  da: Int8Array;
  tf: Int8Array;
  length: Int8Array;
  /** FlagColumn bitmaps of the rows with 0. */
  hasHyphen: Uint32Array;
  hasDigit: Uint32Array;
  expectedDropAt: TimeColumnState;
  labelBytes: Uint8Array;
  labelStart: LabelOffsetsState;
  labelEnd: number;
}

/** A buffer of its own (never a slice of Node's shared pool), so that it can be transferred to another thread. */
const ownBuffer = (bytes: number) => Buffer.allocUnsafeSlow(bytes);

export class FeedColumns {
  readonly size: number;
  /** Code into STATUS_CODES (255 for a status this build does not know: never matches). */
  readonly status: Uint8Array;
  /**
   * Code into `tlds`: a Uint16Array while loading; once grouped a Uint8Array when at most 256 TLDs
   * are in the feed (one byte a row less, issue 35), else a Uint16Array.
   */
  readonly tld: Uint8Array | Uint16Array;
  readonly tlds: string[] = [];
  readonly #tldCodes = new Map<string, number>();
  /** Epoch ms as exact codes (time-column.ts), NULL failing every bound as in SQL. */
  readonly droppedAt: TimeColumn;
  readonly firstArchivedAt: TimeColumn;
  /**
   * NO_VALUE for NULL. Int16 as loaded (a count of other tracked TLDs can exceed 127); Int8 once
   * grouped when every count fits (FeedColumnChunksReader).
   */
  readonly altTldCount: Int8Array | Int16Array;
  readonly da: Int8Array;
  readonly tf: Int8Array;
  // Small whole numbers are Int8 / Int16 so the filter loops see few array kinds (and stay fast).
  /** The label's length: at most 63 (a DNS label), so one byte. */
  readonly length: Int8Array;
  /** 0/1, as bitmaps of the rows with 0. */
  readonly hasHyphen: FlagColumn;
  readonly hasDigit: FlagColumn;
  readonly expectedDropAt: TimeColumn;
  /** Labels (domains without their `.tld`) as bytes, row i's at labelBytes[labelStart(i) .. labelStart(i + 1)). */
  #labelBytes: Buffer;
  readonly #labelStart: LabelOffsets;
  #labelEnd = 0;

  /** Empty columns for `size` rows, or (a FeedColumnsState) columns over that state's arrays, not copied. */
  constructor(sizeOrState: number | FeedColumnsState, labelBytesHint = 12 * (sizeOrState as number)) {
    if (typeof sizeOrState !== 'number') {
      const state = sizeOrState;
      this.size = state.size;
      this.status = state.status;
      this.tld = state.tld;
      for (const tld of state.tlds) this.tldCode(tld, true);
      this.droppedAt = new TimeColumn(state.droppedAt);
      this.firstArchivedAt = new TimeColumn(state.firstArchivedAt);
      this.altTldCount = state.altTldCount;
      this.da = state.da;
      this.tf = state.tf;
      this.length = state.length;
      this.hasHyphen = new FlagColumn(state.hasHyphen);
      this.hasDigit = new FlagColumn(state.hasDigit);
      this.expectedDropAt = new TimeColumn(state.expectedDropAt);
      const bytes = state.labelBytes;
      this.#labelBytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      this.#labelStart = new LabelOffsets(state.labelStart);
      this.#labelEnd = state.labelEnd;
      return;
    }
    const size = sizeOrState;
    this.size = size;
    this.status = new Uint8Array(size);
    this.tld = new Uint16Array(size);
    this.droppedAt = TimeColumn.raw(new Float64Array(size));
    this.firstArchivedAt = TimeColumn.raw(new Float64Array(size));
    this.altTldCount = new Int16Array(size);
    this.da = new Int8Array(size);
    this.tf = new Int8Array(size);
    this.length = new Int8Array(size);
    this.hasHyphen = new FlagColumn(new Uint32Array(FlagColumn.words(size)));
    this.hasDigit = new FlagColumn(new Uint32Array(FlagColumn.words(size)));
    this.expectedDropAt = TimeColumn.raw(new Float64Array(size));
    this.#labelBytes = ownBuffer(Math.max(64, labelBytesHint));
    this.#labelStart = LabelOffsets.empty(size);
  }

  /** Columns of a few rows (e.g. a day's new drops to match saved filters against), in the given order. */
  static fromRows(rows: readonly FeedColumnRow[]): FeedColumns {
    const columns = new FeedColumns(rows.length);
    for (let i = 0; i < rows.length; i++) columns.set(i, rows[i]!);
    return columns;
  }

  /**
   * The first `size` rows as plain data over these columns' own arrays (views, not copies):
   * transferring its buffers to another thread leaves these columns unusable.
   */
  state(size = this.size): FeedColumnsState {
    return {
      size,
      status: this.status.subarray(0, size),
      tld: this.tld.subarray(0, size),
      tlds: [...this.tlds],
      droppedAt: this.droppedAt.state(size),
      firstArchivedAt: this.firstArchivedAt.state(size),
      altTldCount: this.altTldCount.subarray(0, size),
      da: this.da.subarray(0, size),
      tf: this.tf.subarray(0, size),
      length: this.length.subarray(0, size),
      hasHyphen: this.hasHyphen.state(size),
      hasDigit: this.hasDigit.state(size),
      expectedDropAt: this.expectedDropAt.state(size),
      labelBytes: this.#labelBytes.subarray(0, this.#labelStart.start(size)),
      labelStart: this.#labelStart.state(size),
      labelEnd: this.#labelStart.start(size),
    };
  }

  /** Writes row `i` (as the database driver gives it); rows must be written in order 0, 1, 2, … */
  set(i: number, row: FeedColumnRow): void {
    const status = STATUS_CODES.indexOf(row.status);
    this.status[i] = status === -1 ? 255 : status;
    this.tld[i] = this.tldCode(row.tld, true);
    this.droppedAt.set(i, numberOrNull(row.dropped_at));
    this.firstArchivedAt.set(i, numberOrNull(row.first_archived_at));
    this.altTldCount[i] = numberOrNull(row.alt_tld_count) ?? NO_VALUE;
    this.da[i] = numberOrNull(row.da) ?? NO_VALUE;
    this.tf[i] = numberOrNull(row.tf) ?? NO_VALUE;
    const length = Number(row.length);
    if (!(length >= 0 && length <= MOST_LABEL_BYTES)) {
      throw new Error(`Feed row "${row.domain}" has a label length of ${length}`);
    }
    this.length[i] = length;
    this.hasHyphen.set(i, Number(row.has_hyphen));
    this.hasDigit.set(i, Number(row.has_digit));
    this.expectedDropAt.set(i, numberOrNull(row.expected_drop_at));
    this.#appendLabel(i, row.domain, row.tld);
  }

  /** The code of a TLD; -1 when no row has it (and `add` is false). */
  tldCode(tld: string, add = false): number {
    let code = this.#tldCodes.get(tld);
    if (code === undefined) {
      if (!add) return -1;
      code = this.tlds.length;
      this.tlds.push(tld);
      this.#tldCodes.set(tld, code);
    }
    return code;
  }

  /**
   * The labels as bytes (a view; no dots): row i's at bytes[starts[i] … starts[i + 1]), the
   * starts made now, 4 bytes a row (for a build's passes over every label: queries use labelStart).
   */
  get text(): { bytes: Uint8Array; starts: Uint32Array } {
    return { bytes: this.#labelBytes, starts: this.#labelStart.starts(this.size) };
  }

  /** The labels' bytes (a view): row i's at [labelStart(i), labelStart(i + 1)). */
  get labelBytes(): Uint8Array {
    return this.#labelBytes;
  }

  /** Where row i's label starts in labelBytes; labelStart(i + 1) is where it ends. */
  labelStart(i: number): number {
    return this.#labelStart.start(i);
  }

  domain(i: number): string {
    return `${this.#labelBytes.toString('latin1', this.#labelStart.start(i), this.#labelStart.start(i + 1))}.${this.tlds[this.tld[i]!]}`;
  }

  /**
   * Sets bit i of `bits` for every row i in [start, end) whose label contains `needle`, with
   * the native byte search over the rows' labels (a match may not run into the next row's
   * label). Returns how many rows it marked.
   */
  markLabelsContaining(needle: Uint8Array, start: number, end: number, bits: Uint32Array): number {
    const starts = this.#labelStart;
    const last = starts.start(end);
    // A view that ends with the range, so a needle absent from it is not searched for beyond.
    const bytes = this.#labelBytes.subarray(0, last);
    let row = start;
    let from = starts.start(start);
    let marked = 0;
    for (;;) {
      const at = bytes.indexOf(needle, from);
      if (at === -1) return marked;
      let rowEnd = starts.start(row + 1);
      while (rowEnd <= at) rowEnd = starts.start(++row + 1);
      if (at + needle.length <= rowEnd) {
        bits[row >>> 5]! |= 1 << (row & 31);
        marked++;
        from = rowEnd;
      } else {
        from = at + 1;
      }
    }
  }

  /** Whether row i's label contains `needle` (ASCII bytes). */
  labelContains(i: number, needle: Uint8Array): boolean {
    const bytes = this.#labelBytes;
    const last = this.#labelStart.start(i + 1) - needle.length;
    const first = needle[0];
    for (let at = this.#labelStart.start(i); at <= last; at++) {
      if (bytes[at] !== first) continue;
      let k = 1;
      while (k < needle.length && bytes[at + k] === needle[k]) k++;
      if (k === needle.length) return true;
    }
    return false;
  }

  /** Bytes held, for the operator's information. */
  get bytes(): number {
    const arrays = [
      this.status,
      this.tld,
      this.droppedAt.codes,
      this.firstArchivedAt.codes,
      this.altTldCount,
      this.da,
      this.tf,
      this.length,
      this.hasHyphen.zeros,
      this.hasDigit.zeros,
      this.expectedDropAt.codes,
    ];
    return (
      arrays.reduce((sum, array) => sum + array.byteLength, 0) + this.#labelStart.bytes + this.#labelBytes.byteLength
    );
  }

  #appendLabel(i: number, domain: string, tld: string): void {
    // Feed domains are ASCII (A-labels), one byte per character, and `label.tld` with a label of no
    // dot (the pipeline's labelFacts): anything else would be rebuilt wrongly by domain(i).
    const labelLength = domain.length - tld.length - 1;
    if (
      labelLength < 1 ||
      labelLength > MOST_LABEL_BYTES ||
      domain.indexOf('.') !== labelLength ||
      !domain.endsWith(tld)
    ) {
      throw new Error(`Feed row "${domain}" is not a label, a dot and its TLD "${tld}"`);
    }
    if (this.#labelEnd + labelLength > this.#labelBytes.length) {
      const grown = ownBuffer(Math.max(this.#labelBytes.length * 2, this.#labelEnd + labelLength));
      this.#labelBytes.copy(grown, 0, 0, this.#labelEnd);
      this.#labelBytes = grown;
    }
    this.#labelStart.set(i, this.#labelEnd);
    this.#labelEnd += this.#labelBytes.write(domain, this.#labelEnd, labelLength, 'latin1');
    this.#labelStart.set(i + 1, this.#labelEnd);
  }
}
