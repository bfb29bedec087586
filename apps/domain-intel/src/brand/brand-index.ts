import { BRAND_MATCH_KINDS, type BrandMatchKind } from '@repo/contracts/domain-intel';
import unhomoglyph from 'unhomoglyph';

/**
 * Rules against false positives of short terms (docs/design/brand-alerts.md): a term this long
 * or longer is also matched one edit away (one_edit, transposition, doubled_letter); a shorter
 * one would match most short labels of the feed (`ibm` is one edit from 111 other labels).
 */
export const EDIT_MIN_LENGTH = 5;
/** A term this long or longer is also found inside longer labels (`nike` in `nikestore`). */
export const CONTAINS_MIN_LENGTH = 4;
/** Confusable skeletons are also looked for inside longer labels from this length (`paypa1-login`). */
const SKELETON_CONTAINS_MIN_LENGTH = 5;
/** What a one-character edit may put in: what ASCII labels are made of (a term's own letters are added). */
const EDIT_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789-';

const rank = (kind: BrandMatchKind) => BRAND_MATCH_KINDS.indexOf(kind);
const RANKS = Object.fromEntries(BRAND_MATCH_KINDS.map((kind) => [kind, rank(kind)])) as Record<BrandMatchKind, number>;
const HOMOGLYPH = rank('homoglyph');
const HYPHEN_INSERTED = rank('hyphen_inserted');
const DIGIT_INSERTED = rank('digit_inserted');
const CONTAINS = rank('contains');

/**
 * The Unicode TR39 skeleton of a label (NFD, each character to its prototype in Unicode's
 * confusables.txt through `unhomoglyph`, NFD again), lowercased: prototypes are sometimes
 * capitals (`0` → `O`), labels never are. Two labels with the same skeleton look alike.
 */
export function skeleton(label: string): string {
  return unhomoglyph(label.normalize('NFD')).normalize('NFD').toLowerCase();
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const HYPHENS = /-/g;
const DIGITS = /\p{Nd}/gu;
const HAS_DIGIT = /\p{Nd}/u;
const DIGITS_AND_HYPHENS = /[\p{Nd}-]/gu;

/** Keys to term numbers: `add` keeps each term once per key. */
function addTo<K>(map: Map<K, number[]>, key: K, term: number): void {
  const terms = map.get(key);
  if (!terms) map.set(key, [term]);
  else if (!terms.includes(term)) terms.push(term);
}

/**
 * Every brand term of a matching round, precomputed once so that each label of the round costs
 * a few hash lookups whatever the number of terms: the labels one edit away from each term
 * (each with its kind), each term's confusable skeleton, the term without its hyphens and
 * digits, and the terms by length for the substrings of a label. Never a label × term loop.
 */
export class BrandIndex {
  readonly terms: readonly string[];
  /** A whole label → [term, kind rank, term, kind rank, …]: the term itself and its edits. */
  readonly #whole = new Map<string, number[]>();
  readonly #skeletons = new Map<string, number[]>();
  readonly #withoutHyphens = new Map<string, number[]>();
  readonly #withoutDigits = new Map<string, number[]>();
  /** Term length → term text → terms, for `contains`; the same of skeletons. */
  readonly #byLength = new Map<number, Map<string, number[]>>();
  readonly #skeletonsByLength = new Map<number, Map<string, number[]>>();
  /** The strongest kind per term found for the label being matched (reused). */
  readonly #found = new Map<number, number>();

  constructor(terms: Iterable<string>) {
    this.terms = [...new Set(terms)];
    for (const [index, term] of this.terms.entries()) this.#addTerm(term, index);
  }

  /**
   * Every term the label (Unicode, lowercase) resembles, with the strongest kind for each. The
   * answer is a view the next call overwrites.
   */
  match(label: string): ReadonlyMap<number, number> {
    const found = this.#found;
    found.clear();
    const whole = this.#whole.get(label);
    if (whole) for (let i = 0; i < whole.length; i += 2) this.#keep(whole[i]!, whole[i + 1]!);
    const shape = skeleton(label);
    for (const term of this.#skeletons.get(shape) ?? []) this.#keep(term, HOMOGLYPH);
    if (label.includes('-')) {
      for (const term of this.#withoutHyphens.get(label.replace(HYPHENS, '')) ?? []) {
        if (count(label, HYPHENS) > count(this.terms[term]!, HYPHENS)) this.#keep(term, HYPHEN_INSERTED);
      }
    }
    if (HAS_DIGIT.test(label)) {
      for (const term of this.#withoutDigits.get(label.replace(DIGITS_AND_HYPHENS, '')) ?? []) {
        if (count(label, DIGITS) > count(this.terms[term]!, DIGITS)) this.#keep(term, DIGIT_INSERTED);
      }
    }
    this.#substrings(label, this.#byLength, (term) => this.#keep(term, CONTAINS));
    this.#substrings(shape, this.#skeletonsByLength, (term) => {
      // A label with the term itself in it is `contains`, not a lookalike.
      if (!label.includes(this.terms[term]!)) this.#keep(term, HOMOGLYPH);
    });
    return found;
  }

  #keep(term: number, kind: number): void {
    const current = this.#found.get(term);
    if (current === undefined || kind < current) this.#found.set(term, kind);
  }

  #substrings(text: string, byLength: Map<number, Map<string, number[]>>, hit: (term: number) => void): void {
    for (const [length, terms] of byLength) {
      for (let start = 0; start + length <= text.length; start++) {
        const found = terms.get(text.slice(start, start + length));
        if (found) for (const term of found) hit(term);
      }
    }
  }

  #addTerm(term: string, index: number): void {
    const add = (variant: string, kind: BrandMatchKind) => {
      if (variant === term && kind !== 'exact') return;
      const entry = this.#whole.get(variant);
      if (!entry) return void this.#whole.set(variant, [index, RANKS[kind]]);
      for (let i = 0; i < entry.length; i += 2) if (entry[i] === index) return; // first (strongest) kind stays
      entry.push(index, RANKS[kind]);
    };
    add(term, 'exact');
    addTo(this.#skeletons, skeleton(term), index);
    addTo(this.#withoutHyphens, term.replace(HYPHENS, ''), index);
    addTo(this.#withoutDigits, term.replace(DIGITS_AND_HYPHENS, ''), index);
    const characters = [...term];
    if (characters.length >= CONTAINS_MIN_LENGTH) this.#lengthMap(this.#byLength, term.length).set(term, [index]);
    if (characters.length >= SKELETON_CONTAINS_MIN_LENGTH) {
      const shape = skeleton(term);
      const terms = this.#lengthMap(this.#skeletonsByLength, shape.length);
      terms.set(shape, [...(terms.get(shape) ?? []), index]);
    }
    if (characters.length < EDIT_MIN_LENGTH) return;
    // Each edit is a prefix, what changes and a suffix: the prefixes and suffixes are made once.
    const prefix = characters.map((_, i) => characters.slice(0, i).join(''));
    const suffix = characters.map((_, i) => characters.slice(i).join(''));
    prefix.push(term);
    suffix.push('');
    for (let i = 0; i + 1 < characters.length; i++) {
      if (characters[i] !== characters[i + 1]) {
        add(prefix[i]! + characters[i + 1]! + characters[i]! + suffix[i + 2]!, 'transposition');
      }
    }
    for (let i = 0; i < characters.length; i++) add(prefix[i + 1]! + suffix[i]!, 'doubled_letter');
    const alphabet = [...new Set([...EDIT_ALPHABET, ...characters])];
    for (let i = 0; i <= characters.length; i++) {
      for (const letter of alphabet) add(prefix[i]! + letter + suffix[i]!, 'one_edit');
      if (i === characters.length) break;
      add(prefix[i]! + suffix[i + 1]!, 'one_edit');
      for (const letter of alphabet) add(prefix[i]! + letter + suffix[i + 1]!, 'one_edit');
    }
  }

  #lengthMap(byLength: Map<number, Map<string, number[]>>, length: number): Map<string, number[]> {
    const terms = byLength.get(length) ?? new Map<string, number[]>();
    byLength.set(length, terms);
    return terms;
  }
}
