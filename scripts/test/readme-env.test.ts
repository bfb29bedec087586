import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SERVICES, variablesOf } from '../env-docs.ts';

describe('README configuration reference', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const service of SERVICES) {
    it(`documents every variable of ${service.title}, with its meaning`, () => {
      for (const variable of variablesOf(service)) {
        assert.ok(readme.includes(`\`${variable.name}\``), `README.md does not mention ${variable.name}`);
        assert.ok(
          variable.meaning.length > 0,
          `${variable.name} in ${service.file} has no comment saying what it means`,
        );
      }
    });
  }
});
