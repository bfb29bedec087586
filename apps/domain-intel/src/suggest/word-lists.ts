/**
 * Curated affixes for keyword suggestions: short, brandable words that people actually put
 * before or after a keyword in a domain. Ordered by how often they appear in registered
 * names, which is also the order candidates of equal score are tried.
 */
export const PREFIXES = ['get', 'try', 'my', 'go', 'the', 'use', 'join', 'hey', 'we', 'best', 'just', 'meet'] as const;

export const SUFFIXES = [
  'hq',
  'app',
  'hub',
  'labs',
  'online',
  'now',
  'ly',
  'pro',
  'shop',
  'club',
  'world',
  'team',
  'studio',
  'co',
] as const;
