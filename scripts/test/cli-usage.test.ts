import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const dataDir = mkdtempSync(path.join(tmpdir(), 'cli-usage-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs a service's command line as a person would, on an empty embedded database. */
function run(service: 'domain-intel' | 'social-platform', ...args: string[]) {
  const result = spawnSync(process.execPath, [`apps/${service}/bin/${service}.js`, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      DATA_DIR: path.join(dataDir, service),
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A stack frame ("    at fn (file:1:2)") is what a person must never be shown for a usage error. */
const STACK_FRAME = /^\s+at .+\(.*:\d+:\d+\)$|^\s+at .*:\d+:\d+$/m;

function assertUsageError(result: ReturnType<typeof run>, message: RegExp): void {
  assert.equal(result.status, 2, `exit code; stderr: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, STACK_FRAME, 'no stack trace');
  assert.doesNotMatch(result.stdout, STACK_FRAME, 'no stack trace');
}

// Each case starts a whole service (seconds on a busy machine): one case per kind of mistake.
describe('usage errors of both command lines: a clear message and exit code 2, never a stack trace', () => {
  const cases: Array<[string, 'domain-intel' | 'social-platform', string[], RegExp]> = [
    [
      'an unknown plan',
      'domain-intel',
      ['keys', 'create', '--email', 'ann@example.com', '--plan', 'gold'],
      /argument 'gold' is invalid\. Unknown plan "gold"; the plans are free, starter, enterprise\./,
    ],
    [
      'a missing required option',
      'domain-intel',
      ['keys', 'create'],
      /required option '--email <email>' not specified/,
    ],
    [
      'an unknown option',
      'domain-intel',
      ['keys', 'list', '--email', 'a@b.co', '--colour'],
      /unknown option '--colour'/,
    ],
    ['an unknown command', 'domain-intel', ['frobnicate'], /unknown command 'frobnicate'/],
    ['a group without its command', 'domain-intel', ['keys'], /Usage: domain-intel keys/],
    ['a bad number', 'domain-intel', ['deliveries', 'list', '--email', 'a@b.co', '--limit', 'ten'], /whole number/],
    [
      'a zone file that does not exist',
      'domain-intel',
      ['zones', 'import', '--tld', 'com', '--file', 'no/such/file.zone.gz', '--date', '2026-03-10'],
      /The zone file no\/such\/file\.zone\.gz does not exist/,
    ],
    ['an unknown option', 'social-platform', ['users', 'list', '--everyone'], /unknown (option|command)/],
    ['a missing required option', 'social-platform', ['friends', 'add', '--user', 'ann'], /required option '--friend/],
    ['a bad id', 'social-platform', ['keys', 'issue', '--app', 'zero', '--user', 'ann'], /argument 'zero' is invalid/],
    [
      'too many keys',
      'social-platform',
      ['keys', 'issue', '--app', '1', '--user', 'ann', '--count', '5000'],
      /from 1 to 1000/,
    ],
  ];
  for (const [what, service, args, message] of cases) {
    it(`${service}: ${what} (${args.join(' ')})`, () => assertUsageError(run(service, ...args), message));
  }

  it('--help is not an error (exit 0)', () => {
    for (const service of ['domain-intel', 'social-platform'] as const) {
      const help = run(service, '--help');
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`Usage: ${service}`));
    }
  });
});
