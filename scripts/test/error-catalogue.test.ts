import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { errorCatalogue as domainIntelErrors } from '../../apps/domain-intel/src/error-catalogue.ts';
import { errorCatalogue as platformErrors } from '../../apps/social-platform/src/error-catalogue.ts';
import { FRAMEWORK_ERRORS } from '../../packages/server-kit/src/error-catalogue.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

// The sample app is not here: it is the third-party app developers copy out of the repository, so it
// uses no server-kit catalogue; its one code of its own (session_ended) is in its src/errors.ts.
const services = [
  { dir: 'apps/domain-intel/src', catalogue: domainIntelErrors },
  { dir: 'apps/social-platform/src', catalogue: platformErrors },
];

/** Every way a code is written at a raise site: appError('x', …), new ZoneError('x', …), invalidInput('x', …). */
const RAISED_CODE = /\b(?:appError|ZoneError|invalidInput|frameworkError)\(\s*'([a-z0-9_]+)'/g;

describe('the error catalogues', () => {
  it('are the only way to make an AppError: no free-form new AppError(status, code) in any source', () => {
    const offenders = ['apps', 'packages']
      .flatMap((dir) => sourceFiles(dir))
      .filter((file) => !file.includes('node_modules') && !file.includes(`${path.sep}test${path.sep}`))
      .filter((file) => file !== path.join('packages', 'server-kit', 'src', 'error-catalogue.ts'))
      .filter((file) => /new AppError\(/.test(readFileSync(path.join(root, file), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  for (const { dir, catalogue } of services) {
    it(`list every code ${dir} raises`, () => {
      const raised = new Map<string, string>();
      for (const file of sourceFiles(dir)) {
        for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(RAISED_CODE)) {
          raised.set(match[1] as string, file);
        }
      }
      assert.ok(raised.size > 0, 'the scan found the raise sites');
      const missing = [...raised].filter(([code]) => !catalogue.has(code));
      assert.deepEqual(missing, []);
    });

    it(`give every code of ${dir} a status, a meaning and an action`, () => {
      for (const entry of catalogue.entries) {
        assert.match(entry.code, /^[a-z][a-z0-9_]*$/);
        assert.ok(entry.status >= 400 && entry.status < 600, entry.code);
        assert.ok(entry.meaning.length > 5 && entry.action.length > 5, entry.code);
      }
      for (const code of Object.keys(FRAMEWORK_ERRORS)) assert.ok(catalogue.has(code), `${dir} lists ${code}`);
    });
  }

  it('lists the codes server-kit raises itself', () => {
    const raised = [
      ...['error-handler.ts', 'server.ts']
        .map((file) => readFileSync(path.join(root, 'packages/server-kit/src', file), 'utf8'))
        .join('\n')
        .matchAll(/(?:frameworkError\(|code: )'([a-z_]+)'/g),
    ].map((match) => match[1] as string);
    assert.ok(raised.length > 5);
    for (const code of raised) assert.ok(code in FRAMEWORK_ERRORS, code);
  });
});
