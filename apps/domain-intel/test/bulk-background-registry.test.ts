import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backgroundRegistry } from '../src/bulk/background-registry.ts';
import type { RdapClient, RdapLookupOptions } from '../src/rdap/types.ts';

describe("a bulk job's registry client", () => {
  it('asks every lookup as background traffic, keeping the deadline, signal and registry-only flag', async () => {
    const seen: Array<{ name: string; options: RdapLookupOptions }> = [];
    const registry: RdapClient = {
      async lookupDomain(name, options) {
        seen.push({ name, options });
        return { kind: 'unknown', reason: 'timeout', message: 'test', checkedAt: '2026-03-10T12:00:00.000Z' };
      },
    };
    const signal = new AbortController().signal;
    await backgroundRegistry(registry).lookupDomain('example.com', {
      traffic: 'interactive',
      deadline: 123,
      signal,
      registryOnly: true,
    });
    assert.deepEqual(seen, [
      { name: 'example.com', options: { traffic: 'background', deadline: 123, signal, registryOnly: true } },
    ]);
  });
});
