import type { Candidate, CandidateKind } from './candidates.ts';

/**
 * The documented suggestion score, 0–100 (docs/readme/suggest.md):
 *
 *   kind base (exact and TLD swap 60, domain hack 48, plural and hyphenated 44, prefix and suffix 40)
 *   − 1 per character of the label beyond 6       shorter names are easier to say and type
 *   − 8 per hyphen, − 6 if the label has a digit  both are misheard and mistyped
 *   + 20 − 2 × the TLD's position in the run's preference order (at least 0)
 *   + 3 per tracked TLD where the same label is already registered (at most 15): others paid
 *     for that label, a sign it is worth having
 *
 * The kind bases are spaced so that, at equal demand, the exact keyword in any of the first
 * five TLDs outranks every plural, hyphenated, prefix and suffix form, even in the first TLD.
 */
export const KIND_BASE: Record<CandidateKind, number> = {
  exact: 60,
  tld_swap: 60,
  domain_hack: 48,
  plural: 44,
  hyphenated: 44,
  prefix: 40,
  suffix: 40,
};

const FREE_LENGTH = 6;
const HYPHEN_PENALTY = 8;
const DIGIT_PENALTY = 6;
const FIRST_TLD_BONUS = 20;
const TLD_STEP = 2;
const DEMAND_PER_TLD = 3;
const MAX_DEMAND = 15;

/** `altTldDemand`: in how many other tracked TLDs the candidate's label is registered. */
export function scoreCandidate(candidate: Candidate, altTldDemand: number): number {
  const label = candidate.unicodeLabel;
  const length = [...label].length;
  const hyphens = label.split('-').length - 1;
  const score =
    KIND_BASE[candidate.kind] -
    Math.max(0, length - FREE_LENGTH) -
    HYPHEN_PENALTY * hyphens -
    (/\p{N}/u.test(label) ? DIGIT_PENALTY : 0) +
    Math.max(0, FIRST_TLD_BONUS - TLD_STEP * candidate.tldRank) +
    Math.min(MAX_DEMAND, DEMAND_PER_TLD * altTldDemand);
  return Math.round(Math.min(100, Math.max(0, score)) * 10) / 10;
}

/** Best first; ties go to the shorter, then alphabetically earlier name, so output is stable. */
export function byScore<T extends { score: number; candidate: Candidate }>(a: T, b: T): number {
  return (
    b.score - a.score ||
    a.candidate.domain.length - b.candidate.domain.length ||
    (a.candidate.domain < b.candidate.domain ? -1 : a.candidate.domain > b.candidate.domain ? 1 : 0)
  );
}
