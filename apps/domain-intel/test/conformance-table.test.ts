import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { renderConformanceTable, TABLE_END, TABLE_START } from './conformance-table.ts';

/** The RDAP design note holds the table (the README held it until the docs moved to docs/). */
const DESIGN_NOTE = path.join(import.meta.dirname, '..', '..', '..', 'docs', 'design', 'rdap.md');

it('the RDAP design note’s conformance table is the one the corpus renders (UPDATE_CONFORMANCE_TABLE=1 rewrites it)', () => {
  const text = readFileSync(DESIGN_NOTE, 'utf8');
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  assert.ok(start >= 0 && end > start, 'docs/design/rdap.md has the conformance table markers');
  const current = text.slice(start, end + TABLE_END.length);
  const rendered = renderConformanceTable();
  if (process.env.UPDATE_CONFORMANCE_TABLE === '1' && current !== rendered) {
    writeFileSync(DESIGN_NOTE, text.replace(current, rendered));
    return;
  }
  assert.equal(current, rendered);
  assert.doesNotMatch(rendered, /unnamed/, 'every server folder, document and host has a name');
});
