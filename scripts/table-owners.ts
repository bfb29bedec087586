// Who writes which table, read from the sources, and the owners table rendered for
// docs/ARCHITECTURE.md. `npx tsx scripts/table-owners.ts` rewrites the doc's generated tables;
// scripts/test/table-owners.test.ts fails while a write is not its table's owner's or the doc is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLE_OWNERS as DOMAIN_INTEL_OWNERS } from '../apps/domain-intel/src/db/table-owners.ts';
import { TABLE_OWNERS as PLATFORM_OWNERS } from '../apps/social-platform/src/db/table-owners.ts';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARCHITECTURE = path.join(root, 'docs/ARCHITECTURE.md');

export interface Service {
  name: string;
  /** The service's src/, from the repository's root. */
  src: string;
  owners: Readonly<Record<string, string>>;
}

export const SERVICES: readonly Service[] = [
  { name: 'domain-intel', src: 'apps/domain-intel/src', owners: DOMAIN_INTEL_OWNERS },
  { name: 'social-platform', src: 'apps/social-platform/src', owners: PLATFORM_OWNERS },
];

/** One statement that writes a table: where, and the table (undefined: a name the reader cannot see). */
export interface Write {
  file: string;
  line: number;
  table: string | undefined;
  text: string;
}

/** Kysely's writing builders; the table is their first argument (`'name'` or `'name as alias'`). */
const KYSELY_WRITE =
  /\.(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*(?:(['"`])([a-z_]+)[\s'"`]|[^)'"`\s])/g;
/** SQL text (upper case, as every query here is written) that writes the table named after it. */
const SQL_WRITE =
  /\b(?:INSERT\s+(?:OR\s+[A-Z]+\s+)?INTO|REPLACE\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+"?([a-z_]+)"?/g;

/**
 * Every write in one source text. Kysely calls always count (a table given by a variable is
 * reported as unknown, so a write cannot hide behind one); SQL text counts when the word after
 * the keyword is a table, so prose such as "one UPDATE per row" is not a write.
 */
export function writesIn(file: string, text: string, tables: ReadonlySet<string>): Write[] {
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const writes: Write[] = [];
  for (const match of text.matchAll(KYSELY_WRITE)) {
    writes.push({ file, line: lineOf(match.index), table: match[2], text: match[0] });
  }
  for (const match of text.matchAll(SQL_WRITE)) {
    if (tables.has(match[1]!)) writes.push({ file, line: lineOf(match.index), table: match[1], text: match[0] });
  }
  return writes;
}

/** The source files of a service that may write: everything but the migrations (the schema's own). */
export function sourcesOf(service: Service): string[] {
  return readdirSync(path.join(root, service.src), { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.startsWith('db/migrations/'))
    .sort();
}

export function writesOf(service: Service): Write[] {
  const tables = new Set(Object.keys(service.owners));
  return sourcesOf(service).flatMap((file) =>
    writesIn(file, readFileSync(path.join(root, service.src, file), 'utf8'), tables),
  );
}

/** The folder of src/ a file belongs to ("" for a file directly in src/). */
export const moduleOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '');

/** Writes by anyone but the table's owner, to a table without an owner, or to a table it cannot name. */
export function violations(service: Service, writes: readonly Write[]): string[] {
  return writes.flatMap((write) => {
    const where = `${service.src}/${write.file}:${write.line}: ${write.text.trim()}`;
    if (write.table === undefined) return [`${where}: the table is not a literal name, so its owner cannot be checked`];
    const owner = service.owners[write.table];
    if (owner === undefined) return [`${where}: ${write.table} has no owner in db/table-owners.ts`];
    if (moduleOf(write.file) !== owner) return [`${where}: ${write.table} is written only by ${owner}/`];
    return [];
  });
}

/** The doc's table: each table, its owner, and the owner's files that write it, as read from the sources. */
export function renderOwners(service: Service, writes: readonly Write[]): string {
  const byOwner = new Map<string, string[]>();
  for (const [table, owner] of Object.entries(service.owners))
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), table]);
  const rows = [...byOwner.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([owner, tables]) =>
      tables.map((table) => {
        const files = [...new Set(writes.filter((write) => write.table === table).map((write) => write.file))].sort();
        const writers = files.length > 0 ? files.map((file) => `\`${file}\``).join(', ') : 'none yet';
        return `| \`${table}\` | \`${owner}/\` | ${writers} |`;
      }),
    );
  return ['| Table | Owner | Written by (read from the sources) |', '|---|---|---|', ...rows].join('\n');
}

const markers = (service: Service) => ({
  start: `<!-- table-owners:${service.name} (generated by scripts/table-owners.ts from src/db/table-owners.ts) -->`,
  end: `<!-- /table-owners:${service.name} -->`,
});

/** The doc with each service's generated table between its markers; throws when a marker is missing. */
export function withOwnerTables(doc: string): string {
  let text = doc;
  for (const service of SERVICES) {
    const { start, end } = markers(service);
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from)
      throw new Error(`docs/ARCHITECTURE.md: the markers of ${service.name}'s table are missing`);
    text = `${text.slice(0, from + start.length)}\n${renderOwners(service, writesOf(service))}\n${text.slice(to)}`;
  }
  return text;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(ARCHITECTURE, withOwnerTables(readFileSync(ARCHITECTURE, 'utf8')));
  console.log('docs/ARCHITECTURE.md: owner tables rewritten');
}
