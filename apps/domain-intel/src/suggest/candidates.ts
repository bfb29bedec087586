import type { SuggestionKind } from '@repo/contracts/domain-intel';
import { parseDomain } from '../domain/normalize.ts';
import type { Keyword } from './keyword.ts';
import { PREFIXES, SUFFIXES } from './word-lists.ts';

/** How a candidate was formed: the `kind` of a suggestion on the wire. */
export type CandidateKind = SuggestionKind;

export interface Candidate {
  /** Normalised ASCII name, e.g. `xn--caf-dma.com`. */
  domain: string;
  unicodeDomain: string;
  /** ASCII label left of the TLD (`xn--caf-dma`): what the zone index is asked about. */
  label: string;
  /** Unicode label (`café`): what length and the digit/hyphen rules are judged on. */
  unicodeLabel: string;
  tld: string;
  kind: CandidateKind;
  /** Position of the TLD in this run's preference order (0 = most preferred). */
  tldRank: number;
}

interface Form {
  label: string;
  kind: CandidateKind;
  /** A form that only makes sense under one TLD (domain hacks). */
  onlyTld?: string;
}

/**
 * Every candidate name for a keyword across `tlds` (most preferred first): the keyword as is
 * in each TLD, hyphenated and plural forms, curated prefixes and suffixes, and domain hacks
 * (`moveonline` → `move.online`). Names the normaliser refuses are left out; when two forms
 * make the same name, the earlier (stronger) kind is kept.
 */
export function generateCandidates(keyword: Keyword, tlds: readonly string[]): Candidate[] {
  const forms = formsOf(keyword, tlds);
  const candidates = new Map<string, Candidate>();
  for (const form of forms) {
    tlds.forEach((tld, tldRank) => {
      if (form.onlyTld !== undefined && form.onlyTld !== tld) return;
      const parsed = parseDomain(`${form.label}.${tld}`);
      if (!parsed.ok || parsed.domain.tld !== tld || candidates.has(parsed.domain.name)) return;
      const kind = form.kind === 'exact' && tldRank > 0 ? 'tld_swap' : form.kind;
      candidates.set(parsed.domain.name, {
        domain: parsed.domain.name,
        unicodeDomain: parsed.domain.unicodeName,
        label: parsed.domain.label,
        unicodeLabel: form.label,
        tld,
        kind,
        tldRank,
      });
    });
  }
  return [...candidates.values()];
}

function formsOf({ words, joined }: Keyword, tlds: readonly string[]): Form[] {
  const forms: Form[] = [{ label: joined, kind: 'exact' }];
  for (const tld of tlds) {
    if (tld.includes('.') || !joined.endsWith(tld) || joined.length <= tld.length) continue;
    const head = joined.slice(0, -tld.length).replace(/-+$/, '');
    if (head) forms.push({ label: head, kind: 'domain_hack', onlyTld: tld });
  }
  const plural = pluralOf(joined);
  if (plural) forms.push({ label: plural, kind: 'plural' });
  if (words.length > 1) forms.push({ label: words.join('-'), kind: 'hyphenated' });
  for (const prefix of PREFIXES) if (!joined.startsWith(prefix)) forms.push({ label: prefix + joined, kind: 'prefix' });
  for (const suffix of SUFFIXES) if (!joined.endsWith(suffix)) forms.push({ label: joined + suffix, kind: 'suffix' });
  return forms;
}

/** English plural rules for Latin-script keywords; other scripts have no suffix plural to add. */
export function pluralOf(word: string): string | undefined {
  if (!/\p{Script=Latin}$/u.test(word) || /s$/.test(word)) return undefined;
  if (/(?:x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}
