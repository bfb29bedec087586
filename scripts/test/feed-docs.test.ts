import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FEED_FILTER_PARAMETERS } from '@repo/contracts/domain-intel';
import { FEED_GUIDE, renderParameterTable, withParameterTable } from '../feed-docs.ts';

test('the feed guide shows the parameter table as the definitions have it (npm run feed-docs)', () => {
  const guide = readFileSync(FEED_GUIDE, 'utf8');
  assert.equal(guide, withParameterTable(guide));
});

test('the table has one row per filter, with its range and error codes', () => {
  const table = renderParameterTable();
  for (const parameter of FEED_FILTER_PARAMETERS) assert.match(table, new RegExp(`^\\| \`${parameter}\` \\|`, 'm'));
  assert.match(table, /^\| `min_da` \| Minimum Moz DA \(0-100\) \| `invalid_min_da` \|$/m);
  assert.match(table, /^\| `tld` \| .* \| `unknown_tld`, `invalid_tld` \|$/m);
});
