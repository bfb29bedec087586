import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@repo/server-kit/testing';
import { Command } from 'commander';
import { registerZonesCommands } from '../src/cli/zones-commands.ts';
import { loadDomainIntelConfig } from '../src/config.ts';
import { type AppContext, createContext } from '../src/context.ts';

const zone = (names: string[]) =>
  `$ORIGIN test.\n@ IN SOA a.nic.test. h.nic.test. 1 2 3 4 5\n${names.map((name) => `${name} IN NS ns1.host.example.`).join('\n')}\n`;

describe('domain-intel zones CLI', () => {
  const temp = tempDir('zones-cli');
  let ctx: AppContext;
  before(async () => {
    ctx = await createContext(loadDomainIntelConfig({ NODE_ENV: 'test', DATA_DIR: temp.dir, LOG_LEVEL: 'silent' }));
  });
  after(async () => {
    await ctx.close();
    temp.remove();
  });

  /** Runs `zones …` in this process, capturing what it prints. */
  async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
    const program = new Command('domain-intel').exitOverride();
    let stdout = '';
    let stderr = '';
    const sink = (append: (text: string) => void) =>
      new Writable({
        write(chunk, _encoding, done) {
          append(String(chunk));
          done();
        },
      });
    program.configureOutput({ writeErr: (text) => (stderr += text), writeOut: (text) => (stdout += text) });
    registerZonesCommands(program, async () => ctx, {
      stdout: sink((text) => (stdout += text)),
      stderr: sink((text) => (stderr += text)),
    });
    const exitCodeBefore = process.exitCode;
    try {
      await program.parseAsync(['zones', ...args], { from: 'user' });
      return { stdout, stderr, exitCode: Number(process.exitCode ?? 0) };
    } finally {
      process.exitCode = exitCodeBefore;
    }
  }

  it('imports (gzip and plain), re-runs as a no-op, lists and diffs snapshots', async () => {
    const first = path.join(temp.dir, 'day1.zone.gz');
    const second = path.join(temp.dir, 'day2.txt');
    writeFileSync(first, gzipSync(zone(['beta', 'alpha', 'gamma', 'alpha'])));
    writeFileSync(second, zone(['gamma', 'delta', 'beta']));

    const imported = await cli('import', '--tld', 'test', '--file', first, '--date', '2026-03-09', '--json');
    assert.deepEqual(JSON.parse(imported.stdout), { tld: 'test', date: '2026-03-09', names: 3, status: 'imported' });
    const plain = await cli('import', '--tld', '.TEST', '--file', second, '--date', '2026-03-10');
    assert.match(plain.stdout, /\.test 2026-03-10: imported 3 names/);
    const again = await cli('import', '--tld', 'test', '--file', second, '--date', '2026-03-10');
    assert.match(again.stdout, /already imported \(3 names\), nothing to do/);

    const listed = JSON.parse((await cli('list', '--json')).stdout) as Array<{ date: string; names: number }>;
    assert.deepEqual(
      listed.map(({ date, names }) => ({ date, names })),
      [
        { date: '2026-03-09', names: 3 },
        { date: '2026-03-10', names: 3 },
      ],
    );
    assert.match((await cli('list')).stdout, /tld\s+date\s+names/);
    const diff = await cli('diff', '--tld', 'test', '--from', '2026-03-09', '--to', '2026-03-10');
    assert.equal(diff.stdout, '- alpha.test\n+ delta.test\n');
  });

  it('says a zone file does not exist before anything else, even for a date already imported', async () => {
    const held = path.join(temp.dir, 'held.zone');
    writeFileSync(held, zone(['alpha', 'beta', 'gamma']));
    await cli('import', '--tld', 'test', '--file', held, '--date', '2026-03-20');
    const missing = path.join(temp.dir, 'no-such.zone.gz');
    // Not "already imported" with exit 0: the command refuses the path (a usage error, exit 2 in the binary) …
    await assert.rejects(cli('import', '--tld', 'test', '--file', missing, '--date', '2026-03-20'), {
      name: 'UsageError',
      message: new RegExp(`The zone file ${missing.replaceAll('.', '\\.')} does not exist`),
    });
    // … and so does the service under it.
    await assert.rejects(ctx.zones.importZoneFile({ tld: 'test', file: missing, date: '2026-03-20' }), {
      code: 'zone_file_not_found',
    });
  });

  it('sync reports each TLD failure with its code and exits non-zero', async () => {
    const result = await cli('sync', '--tld', 'com', '--date', '2026-03-10');
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /\.com 2026-03-10: failed \(czds_not_configured\): CZDS_USERNAME and CZDS_PASSWORD/);
  });

  it('refuses a bad date or TLD before doing anything', async () => {
    await assert.rejects(cli('import', '--tld', 'test', '--file', 'x', '--date', '2026-13-01'), /not a valid date/);
    await assert.rejects(cli('list', '--tld', 'a b'), /not a top-level domain/);
  });

  it('is wired into the domain-intel binary', async () => {
    const file = path.join(temp.dir, 'bin.zone');
    writeFileSync(file, zone(['one']));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(import.meta.dirname, '..', 'bin', 'domain-intel.js'),
        'zones',
        'import',
        '--tld',
        'test',
        '--file',
        file,
        '--date',
        '2026-03-01',
        '--json',
      ],
      { env: { ...process.env, DATA_DIR: path.join(temp.dir, 'bin'), DATABASE_URL: '', LOG_LEVEL: 'silent' } },
    );
    assert.equal(JSON.parse(stdout).names, 1);
  });
});
