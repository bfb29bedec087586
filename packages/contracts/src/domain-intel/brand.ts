import { type Static, Type } from 'typebox';
import { Literals } from '../schema-helpers.ts';

/**
 * Why a row matched a saved filter's brand term, strongest first (a row that fits several kinds
 * is labelled with the first): the label is the term (`exact`, under whatever TLD the row has),
 * looks like it once both go through Unicode TR39 confusable skeletons (`homoglyph`: IDN
 * confusables, `paypa1`, `rn` for `m`), has two neighbouring letters swapped (`transposition`),
 * a letter doubled (`doubled_letter`), hyphens or digits added (`hyphen_inserted`,
 * `digit_inserted`), one other edit (`one_edit`: a letter added, dropped or replaced), or the
 * term inside a longer label (`contains`). docs/design/brand-alerts.md gives the rules.
 */
export const BRAND_MATCH_KINDS = [
  'exact',
  'homoglyph',
  'transposition',
  'doubled_letter',
  'hyphen_inserted',
  'digit_inserted',
  'one_edit',
  'contains',
] as const;
export type BrandMatchKind = (typeof BRAND_MATCH_KINDS)[number];

/** Shortest and longest brand term, in characters (one or two letters would match most of the feed). */
export const BRAND_TERM_MIN = 3;
export const BRAND_TERM_MAX = 63;

/** Why a row of a brand filter's batch matched. */
export const BrandMatch = Type.Object(
  {
    brand: Type.String({ description: "The filter's brand term (Unicode, lowercase)", examples: ['paypal'] }),
    kind: Literals(BRAND_MATCH_KINDS, { description: 'How the label resembles the term' }),
    label: Type.String({
      description: 'The label compared, in Unicode (an xn-- label decoded)',
      examples: ['paypa1'],
    }),
  },
  { description: 'Only in batches of a filter with a brand term: which lookalike of the term the label is' },
);
export type BrandMatch = Static<typeof BrandMatch>;
