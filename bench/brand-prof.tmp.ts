import { brandHits } from '../apps/domain-intel/src/brand/brand-round.ts';
import { BenchLabels } from './domains-feed-labels.ts';
const labels = new BenchLabels();
const rows = Array.from({ length: 120000 }, () => ({ domain: `${labels.next()}.com`, tld: 'com' }));
const t7 = new BenchLabels(7);
const terms = new Set<string>();
while (terms.size < 500) { const l = t7.next(); if (/^[a-z]{4,14}$/.test(l)) terms.add(l); }
let t = performance.now();
const hits = brandHits(rows, terms);
console.log('brandHits 120k x 500', (performance.now() - t).toFixed(0), 'ms', hits.size);
t = performance.now();
brandHits(rows.slice(0, 1), terms);
console.log('index only', (performance.now() - t).toFixed(0), 'ms');
