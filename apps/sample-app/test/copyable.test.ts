import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Every module the app's own code imports, by file. */
function importsOf(dir: string): Array<{ file: string; specifier: string }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .flatMap((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const source = readFileSync(file, 'utf8');
      return [...source.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((match) => ({
        file: path.relative(APP_DIR, file),
        specifier: (match[1] ?? match[2])!,
      }));
    });
}

describe('the sample app can be copied out of this repository', () => {
  it('imports no package of the repository and nothing outside its own folder', () => {
    const imports = importsOf(path.join(APP_DIR, 'src'));
    assert.ok(imports.length > 20, 'the imports were found');
    for (const { file, specifier } of imports) {
      assert.ok(!specifier.startsWith('@repo/'), `${file} imports ${specifier}`);
      if (specifier.startsWith('.')) {
        const target = path.resolve(APP_DIR, path.dirname(file), specifier);
        assert.ok(target.startsWith(path.join(APP_DIR, 'src')), `${file} reaches outside the app: ${specifier}`);
      }
    }
  });

  it('depends only on packages from the public registry', () => {
    const manifest = JSON.parse(readFileSync(path.join(APP_DIR, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const declared = { ...manifest.dependencies, ...manifest.devDependencies };
    for (const [name, version] of Object.entries(declared)) {
      assert.ok(!name.startsWith('@repo/'), `${name} is a package of this repository`);
      assert.match(version, /^[~^]?\d/, `${name}@${version} is a registry version`);
    }
  });
});
