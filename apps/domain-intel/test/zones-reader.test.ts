import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@repo/server-kit/testing';
import { readZoneFile } from '../src/zones/zone-reader.ts';

const fixture = path.join(import.meta.dirname, 'fixtures', 'zones', 'example.zone');
const expected = ['apple.test', 'big.test', 'mango.test', 'nic.test', 'sub.test', 'xn--bcher-kva.test', 'zebra.test'];

async function namesOf(file: string, tld = 'test'): Promise<string[]> {
  const names: string[] = [];
  for await (const name of readZoneFile(file, tld).names) names.push(name);
  return names;
}

function withFile(name: string, content: string | Buffer, run: (file: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const temp = tempDir('zones-reader');
    try {
      const file = path.join(temp.dir, name);
      writeFileSync(file, content);
      await run(file);
    } finally {
      temp.remove();
    }
  };
}

describe('zone reader', () => {
  it('keeps exactly the second-level names delegated with NS records', async () => {
    const scan = readZoneFile(fixture, 'test');
    const names: string[] = [];
    for await (const name of scan.names) names.push(name);
    assert.deepEqual([...names].sort(), expected);
    assert.equal(scan.stats.sawApexSoa, true);
    assert.equal(scan.stats.skippedOwners, 1, 'the owner with an escaped dot is skipped, not guessed');
  });

  it('collapses the consecutive NS records of one name', async () => {
    const names = await namesOf(fixture);
    assert.equal(names.filter((name) => name === 'zebra.test').length, 1);
    assert.equal(names.filter((name) => name === 'apple.test').length, 1);
  });

  it(
    'reads gzip by magic bytes whatever the file is called, and CRLF line ends',
    withFile('zone.txt', gzipSync(readFileSync(fixture, 'latin1').replaceAll('\n', '\r\n')), async (file) => {
      assert.deepEqual((await namesOf(file)).sort(), expected);
    }),
  );

  it(
    'reads concatenated gzip members as one stream (as zcat does)',
    withFile(
      'multi.gz',
      Buffer.concat([
        gzipSync('test. IN SOA a.nic.test. h.nic.test. 1 2 3 4 5\n'),
        gzipSync('one.test. IN NS ns.one.test.\n'),
      ]),
      async (file) => assert.deepEqual(await namesOf(file), ['one.test']),
    ),
  );

  it(
    'refuses a truncated gzip file',
    withFile('cut.zone.gz', gzipSync(readFileSync(fixture)).subarray(0, 200), async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_truncated' });
    }),
  );

  it('refuses a corrupt gzip file', async () => {
    const corrupt = gzipSync(readFileSync(fixture));
    for (let i = 20; i < corrupt.length - 8; i += 7) corrupt[i] = (corrupt[i]! + 0x5a) & 0xff;
    await withFile('bad.zone.gz', corrupt, async (file) => {
      await assert.rejects(namesOf(file), (error: { code?: string }) =>
        ['zone_file_corrupt', 'zone_file_truncated'].includes(error.code ?? ''),
      );
    })();
  });

  it(
    'refuses a file without the SOA of the zone (another zone, or cut off at the start)',
    withFile('nosoa.zone', 'one.test. IN NS ns.one.test.\n', async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_invalid', message: /no SOA record for "test\."/ });
    }),
  );

  it(
    'refuses a file cut inside a parenthesised record',
    withFile('open.zone', 'test. IN SOA a.nic.test. h.nic.test. ( 1 2\n', async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_truncated' });
    }),
  );

  it(
    'refuses lines that are not resource records, with the line number',
    withFile('junk.zone', 'test. IN SOA a. h. 1 2 3 4 5\nthis line has no ### type\n', async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_invalid', message: /line 2/ });
    }),
  );

  it(
    'refuses binary junk',
    withFile('junk.bin', Buffer.from([0x00, 0xff, 0x10, 0x0a, 0xc3, 0x28, 0x0a]), async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_invalid' });
    }),
  );

  it(
    'refuses $INCLUDE, which would read another file',
    withFile('inc.zone', 'test. IN SOA a. h. 1 2 3 4 5\n$INCLUDE /etc/passwd\n', async (file) => {
      await assert.rejects(namesOf(file), { code: 'zone_file_invalid', message: /\$INCLUDE/ });
    }),
  );

  it('reads the bytes in place the same way whatever the spelling, and across gzip chunk edges', async () => {
    // Each shape once in the fast path's way and once where only the tokenizer can be sure: mixed
    // case, TTL and class in either order or absent, CRLF, owners omitted after a fast-path line,
    // comments and parentheses; 40,000 names, so lines straddle the decompressor's 128 KiB chunks.
    const lines = ['TEST.\t900\tIN\tSOA\ta.nic.test. h.nic.test. 1 2 3 4 5'];
    const expectedNames: string[] = [];
    const shapes = [
      (name: string) => `${name}.test.\t172800\tin\tns\tns1.host.net.\n${name}.test.\t172800\tin\tns\tns2.host.net.`,
      (name: string) => `${name.toUpperCase()}.TEST. IN 3600 NS NS1.HOST.NET.\r`,
      (name: string) => `${name}.test. NS ns1.host.net.\n\tNS ns2.host.net.\n ds 1 13 2 abcd`,
      (name: string) => `${name}.test. 60 IN NS ns1.host.net. ; a comment`,
      (name: string) => `${name}.test. IN NS ( ns1.host.net. )`,
      (name: string) => `ns1.${name}.test. IN A 192.0.2.1\n${name}.test.\tIN\tNS\tns1.${name}.test.`,
    ];
    for (let i = 0; i < 40_000; i++) {
      const name = `n${i.toString(36)}`;
      lines.push(shapes[i % shapes.length]!(name));
      expectedNames.push(`${name}.test`);
    }
    lines.push('-bad-.test. IN NS ns.host.net.', 'a.b.test. IN NS ns.host.net.');
    await withFile('shapes.zone.gz', gzipSync(`${lines.join('\n')}\n`), async (file) => {
      const scan = readZoneFile(file, 'test');
      const names: string[] = [];
      for await (const name of scan.names) names.push(name);
      assert.deepEqual(names, expectedNames);
      assert.equal(scan.stats.skippedOwners, 1);
      assert.equal(scan.stats.sawApexSoa, true);
    })();
  });

  it(
    'counts an NS line that repeats the one before it up to its server as that line was counted',
    withFile(
      'repeats.zone',
      [
        'test.\t900\tin\tsoa\ta.nic.test. h.nic.test. 1 2 3 4 5',
        ...Array(3).fill('a.test.\t60\tin\tns\tns1.host.net.'),
        ...Array(2).fill('-bad-.test.\t60\tin\tns\tns1.host.net.'),
        ...Array(2).fill('deep.a.test.\t60\tin\tns\tns1.host.net.'),
        'b.test.\t60\tin\tns\tns1.host.net.',
        'b.test.\t60\tin\tns\tns2.host.net.',
        '',
      ].join('\n'),
      async (file) => {
        const scan = readZoneFile(file, 'test');
        const names: string[] = [];
        for await (const name of scan.names) names.push(name);
        assert.deepEqual(names, ['a.test', 'b.test']);
        assert.deepEqual(
          { lines: scan.stats.lines, delegations: scan.stats.delegationRecords, skipped: scan.stats.skippedOwners },
          { lines: 10, delegations: 5, skipped: 2 },
        );
      },
    ),
  );

  it(
    'refuses an NS line without its server even when it repeats the line before it up to there',
    withFile(
      'cut-repeat.zone',
      'test.\t900\tin\tsoa\ta. h. 1 2 3 4 5\nb.test.\t60\tin\tns\tns1.host.net.\nb.test.\t60\tin\tns\t  \n',
      async (file) => {
        await assert.rejects(namesOf(file), { code: 'zone_file_invalid', message: /line 3/ });
      },
    ),
  );

  it('reports a missing file clearly', async () => {
    await assert.rejects(namesOf('/nonexistent/zone.gz'), { code: 'zone_file_not_found' });
  });
});
