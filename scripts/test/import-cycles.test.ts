import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { parseCircular, parseDependencyTree } from 'dpdm';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Every TypeScript file the repository runs or tests: the services, the packages, their tests,
 * the demo, the scripts and the benchmarks.
 */
const ENTRIES = [
  'apps/*/src/**/*.ts',
  'apps/*/demo/**/*.ts',
  'apps/*/test/**/*.ts',
  'packages/*/src/**/*.ts',
  'packages/*/test/**/*.ts',
  'bench/**/*.ts',
  'scripts/**/*.ts',
];

// A cycle makes the order in which modules initialise depend on which one is imported first (a
// value read during import can be undefined), and even a type-only cycle ties two modules that
// the layering keeps apart. Type imports count: moving the shared type into a file of its own
// is always possible and makes the dependency's direction plain.
test('no import cycle anywhere in the repository, type-only imports included', async () => {
  const tree = await parseDependencyTree(ENTRIES, {
    context: root,
    cwd: root,
    transform: false,
    skipDynamicImports: false,
    include: /\.(ts|mts|js|mjs)$/,
    exclude: /node_modules|\.tsbuild|\/dist\//,
  });
  assert.ok(Object.keys(tree).length > 400, 'the sources were found');
  const cycles = parseCircular(tree).map((cycle) => cycle.join(' -> '));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});
