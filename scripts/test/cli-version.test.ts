import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const services = [
  { name: 'domain-intel', cli: 'apps/domain-intel/src/cli.ts' },
  { name: 'social-platform', cli: 'apps/social-platform/src/cli.ts' },
];

describe('--version', () => {
  for (const service of services) {
    it(`${service.name} --version prints its package version and exits 0`, () => {
      const { version } = JSON.parse(readFileSync(`apps/${service.name}/package.json`, 'utf8')) as { version: string };
      const output = execFileSync(process.execPath, ['--import', 'tsx', service.cli, '--version'], {
        encoding: 'utf8',
      });
      assert.equal(output.trim(), version);
    });
  }
});
