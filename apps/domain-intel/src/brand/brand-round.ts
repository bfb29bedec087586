import { BRAND_MATCH_KINDS, type BrandMatch } from '@repo/contracts/domain-intel';
import { BrandIndex } from './brand-index.ts';
import { unicodeLabel } from './brand-term.ts';

/** A row of the round that resembles a brand term: its position in the round's rows and why. */
export interface BrandHit {
  position: number;
  match: BrandMatch;
}

/**
 * Every brand term's hits among the rows of a matching round, in row order: one BrandIndex of
 * the terms, then each row's label decoded, skeletonised and looked up once (cost grows with the
 * rows, hardly with the number of terms).
 */
export function brandHits(
  rows: readonly { domain: string; tld: string }[],
  terms: Iterable<string>,
): Map<string, BrandHit[]> {
  const index = new BrandIndex(terms);
  const hits = new Map<string, BrandHit[]>();
  if (index.terms.length === 0) return hits;
  for (let position = 0; position < rows.length; position++) {
    const row = rows[position]!;
    const label = unicodeLabel(row.domain, row.tld);
    for (const [term, kind] of index.match(label)) {
      const brand = index.terms[term]!;
      const match: BrandMatch = { brand, kind: BRAND_MATCH_KINDS[kind]!, label };
      const list = hits.get(brand);
      if (list) list.push({ position, match });
      else hits.set(brand, [{ position, match }]);
    }
  }
  return hits;
}
