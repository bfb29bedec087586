import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SERVICES, variablesOf } from '../env-docs.ts';

/** The configuration reference moved from the README to its own page; `npm run env-docs` prints its tables. */
const REFERENCE = 'docs/reference/configuration.md';

describe('configuration reference', () => {
  const reference = readFileSync(new URL(`../../${REFERENCE}`, import.meta.url), 'utf8');
  for (const service of SERVICES) {
    it(`documents every variable of ${service.title}, with its meaning`, () => {
      for (const variable of variablesOf(service)) {
        assert.ok(reference.includes(`\`${variable.name}\``), `${REFERENCE} does not mention ${variable.name}`);
        assert.ok(
          variable.meaning.length > 0,
          `${variable.name} in ${service.file} has no comment saying what it means`,
        );
      }
    });
  }
});
