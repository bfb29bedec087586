/** mulberry32: a small seeded PRNG, so a seed always yields the same world and the same churn. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SYLLABLES = [
  'ba',
  'co',
  'da',
  'fi',
  'go',
  'ha',
  'jo',
  'ka',
  'lu',
  'ma',
  'ne',
  'no',
  'pa',
  'qui',
  'ra',
  'sa',
  'te',
  'tu',
  'vi',
  'wo',
  'zen',
  'bit',
  'cloud',
  'shop',
  'web',
  'net',
  'pro',
  'max',
  'hub',
  'lab',
  'go',
  'sun',
  'star',
  'blue',
  'green',
  'fox',
];

/** A pronounceable label, sometimes with a digit or a hyphen (the feed filters on both). */
export function randomLabel(random: () => number): string {
  const parts = 2 + Math.floor(random() * 2);
  const syllables = Array.from({ length: parts }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]!);
  const roll = random();
  if (roll < 0.1) return `${syllables.join('')}${Math.floor(random() * 100)}`;
  if (roll < 0.18) return `${syllables[0]}-${syllables.slice(1).join('')}`;
  return syllables.join('');
}
