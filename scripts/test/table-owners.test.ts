import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ARCHITECTURE, SERVICES, violations, withOwnerTables, writesIn, writesOf } from '../table-owners.ts';

// One writer per table, like one catalogue per error code: a second writer is found here, not in
// review. The fix is to call the owner (or move the table to another owner, in db/table-owners.ts).
for (const service of SERVICES) {
  test(`${service.name}: every table is written only by its owner`, () => {
    const writes = writesOf(service);
    assert.ok(writes.length > 30, 'the writes were found');
    assert.deepEqual(violations(service, writes), []);
  });
}

test('docs/ARCHITECTURE.md shows the owners table as the sources have it (npx tsx scripts/table-owners.ts)', () => {
  const doc = readFileSync(ARCHITECTURE, 'utf8');
  assert.equal(doc, withOwnerTables(doc));
});

test('a write by a module that does not own the table is found, in Kysely and in SQL text', () => {
  const platform = SERVICES.find((service) => service.name === 'social-platform')!;
  const tables = new Set(Object.keys(platform.owners));
  const source = [
    "await this.db.updateTable('users').set({ picture_photo_id: id }).execute();",
    "await trx.insertInto('photos as p').values(row).execute();",
    'await sql`DELETE FROM users WHERE id = 1`.execute(db);',
    'await this.db.deleteFrom(table).execute();',
    '// one UPDATE per row, INSERT INTO a log: prose, not a write',
  ].join('\n');
  const writes = writesIn('photos/photos-service.ts', source, tables);
  assert.deepEqual(
    writes.map((write) => [write.line, write.table]),
    [
      [1, 'users'],
      [2, 'photos'],
      [4, undefined],
      [3, 'users'],
    ],
  );
  const found = violations(platform, writes);
  assert.equal(found.length, 3);
  assert.match(found[0]!, /photos-service\.ts:1: .*users is written only by users\//);
  assert.match(found[1]!, /:4: .*not a literal name/);
  assert.match(found[2]!, /:3: DELETE FROM users: users is written only by users\//);
});
