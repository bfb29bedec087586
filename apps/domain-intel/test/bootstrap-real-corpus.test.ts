import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ManualClock } from '@repo/server-kit';
import { tempDir } from '@repo/server-kit/testing';
import { RdapBootstrap } from '../src/rdap/bootstrap.ts';
import { REAL_DIR, readRealJson } from './real-corpus.ts';

/**
 * Real copies of IANA's RDAP bootstrap file (fixtures/real/bootstrap, origins in SOURCES.md), from
 * 2017 to 2025, through the service's bootstrap reader. Expected servers read off the files by hand
 * (the reader ends every base URL with `/`).
 */
async function serversIn(file: string, tlds: string[]): Promise<Record<string, string[] | null>> {
  const bootstrap = new RdapBootstrap({
    source: file,
    overrides: {},
    cacheFile: undefined,
    refreshMs: 86_400_000,
    fetchTimeoutMs: 1000,
    clock: new ManualClock('2026-01-01T00:00:00Z'),
  });
  try {
    const servers: Record<string, string[] | null> = {};
    for (const tld of tlds) {
      const answer = await bootstrap.serversFor(tld);
      assert.notEqual(answer.kind, 'unavailable', JSON.stringify(answer));
      servers[tld] = answer.kind === 'servers' ? answer.baseUrls : null;
    }
    return servers;
  } finally {
    await bootstrap.close();
  }
}

const real = (name: string) => path.join(REAL_DIR, 'bootstrap', name);

describe('real IANA dns.json copies through the bootstrap reader', () => {
  it('2017 (openrdap test copy): three ccTLDs, URLs without a trailing slash', async () => {
    assert.deepEqual(await serversIn(real('openrdap-dns.json'), ['cz', 'ar', 'br', 'com']), {
      cz: ['https://rdap.nic.cz/'],
      ar: ['https://rdap.nic.ar/'],
      br: ['https://rdap.registro.br/'],
      com: null,
    });
  });

  it('2017 (nicinfo): .com and .net on Verisign Labs’ pilot', async () => {
    assert.deepEqual(await serversIn(real('nicinfo-dns.json'), ['com', 'net', 'org']), {
      com: ['https://rdap-pilot.verisignlabs.com/rdap/v1/'],
      net: ['https://rdap-pilot.verisignlabs.com/rdap/v1/'],
      org: null,
    });
  });

  it('2019 (rdap_client): PIR still at publicinterestregistry.net, no .de', async () => {
    assert.deepEqual(await serversIn(real('rdap_client-dns.json'), ['com', 'org', 'cz', 'de']), {
      com: ['https://rdap.verisign.com/com/v1/'],
      org: ['https://rdap.publicinterestregistry.net/rdap/org/'],
      cz: ['https://rdap.nic.cz/'],
      de: null,
    });
  });

  it('2022 (whoisit, the dns member of its combined file)', async () => {
    const dir = tempDir('bootstrap-real');
    try {
      const file = path.join(dir.dir, 'dns.json');
      writeFileSync(file, JSON.stringify(readRealJson('bootstrap/whoisit-bootstrap.json').dns));
      assert.deepEqual(await serversIn(file, ['com']), { com: ['https://rdap.verisign.com/com/v1/'] });
    } finally {
      dir.remove();
    }
  });

  it('2025 (rdap-cctld-ts): PIR at publicinterestregistry.org, SIDN and AFNIC listed', async () => {
    assert.deepEqual(await serversIn(real('rdap-cctld-ts-iana-rdap.json'), ['com', 'org', 'nl', 'fr', 'br']), {
      com: ['https://rdap.verisign.com/com/v1/'],
      org: ['https://rdap.publicinterestregistry.org/rdap/'],
      nl: ['https://rdap.sidn.nl/'],
      fr: ['https://rdap.nic.fr/'],
      br: ['https://rdap.registro.br/'],
    });
  });
});
