import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir, testTimeout } from '@repo/server-kit/testing';
import fc from 'fast-check';
import type { AvailabilityVerdict } from '../src/suggest/confirmation.ts';
import { type AvailabilityChecker, SuggestionService } from '../src/suggest/suggestion-service.ts';
import { ZoneIndex } from '../src/zone-index/zone-index.ts';
import { ArraySnapshots } from './zone-index-helpers.ts';

/**
 * Stands in for the RDAP engine at the service boundary, so each test can script every
 * upstream answer (the HTTP tests run the real engine against the simulator).
 */
class ScriptedAvailability implements AvailabilityChecker {
  readonly asked: string[] = [];
  constructor(private readonly answer: (domain: string) => Partial<AvailabilityVerdict> | Promise<never>) {}
  async check(names: string[]): Promise<AvailabilityVerdict[]> {
    this.asked.push(...names);
    return Promise.all(
      names.map(async (domain) => ({
        domain,
        available: true,
        status: 'available',
        source: 'rdap',
        checked_at: '2026-03-10T12:00:00.000Z',
        ...(await this.answer(domain)),
      })),
    );
  }
}

const settings = {
  defaultTlds: ['com', 'net', 'org', 'io'],
  deadlineMs: testTimeout(5_000),
  maxResults: 20,
  confirmConcurrency: 8,
  maxRdapChecks: 100,
};

describe('SuggestionService', () => {
  const temp = tempDir('suggest');
  let zone: ZoneIndex;
  before(async () => {
    const snapshots = new ArraySnapshots();
    snapshots.put('com', '2026-03-10', ['coffee.com', 'getcoffee.com', 'coffeeshop.com', 'xn--caf-dma.com', 'tea.com']);
    snapshots.put('net', '2026-03-10', ['coffee.net', 'coffeehq.net', 'tea.net']);
    snapshots.put('org', '2026-03-10', ['coffeehq.org', 'tea.org']);
    zone = await ZoneIndex.open({ directory: temp.dir, tlds: ['com', 'net', 'org'], snapshots, cacheBytes: 1 << 20 });
    await zone.refresh();
  });
  after(async () => {
    await zone.close();
    temp.remove();
  });

  it('never returns or even asks RDAP about names in the zone, and reports the screening', async () => {
    const availability = new ScriptedAvailability(() => ({}));
    const service = new SuggestionService(availability, zone, settings);
    const run = await service.suggest({ keyword: 'coffee' });
    const returned = run.suggestions.map((s) => s.domain);
    for (const registered of ['coffee.com', 'getcoffee.com', 'coffee.net', 'coffeehq.net', 'coffeehq.org']) {
      assert.ok(!returned.includes(registered), registered);
      assert.ok(!availability.asked.includes(registered), registered);
    }
    assert.equal(run.suggestions.length, 20);
    assert.equal(run.suggestions[0]!.domain, 'coffee.org', 'the exact keyword in the best free TLD first');
    assert.ok(run.stats.in_zone >= 5);
    assert.ok(run.stats.screened > run.stats.in_zone);
    assert.equal(run.stats.deadline_reached, false);
    assert.deepEqual(
      run.suggestions.map((s) => s.score),
      [...run.suggestions.map((s) => s.score)].sort((a, b) => b - a),
    );
  });

  it('never returns names RDAP calls registered, reserved or unknown; upstream faults only shrink the list', async () => {
    const availability = new ScriptedAvailability((domain) => {
      if (domain.endsWith('.io')) return { available: null, status: 'unknown', source: 'rdap', reason: 'timeout' };
      if (domain.startsWith('try')) return { available: false, status: 'registered' };
      if (domain.startsWith('my')) return Promise.reject(new Error('socket hang up'));
      if (domain.startsWith('the')) return { available: null, status: 'reserved' };
      return {};
    });
    const service = new SuggestionService(availability, zone, { ...settings, defaultTlds: ['io', 'com'] });
    const run = await service.suggest({ keyword: 'coffee' });
    assert.ok(run.suggestions.length > 0);
    for (const suggestion of run.suggestions) {
      assert.equal(suggestion.available, true);
      assert.ok(!suggestion.domain.endsWith('.io'), suggestion.domain);
      assert.ok(!/^(try|my|the)/.test(suggestion.domain), suggestion.domain);
    }
    assert.ok(run.stats.unconfirmed > 0);
  });

  it('returns an empty list, not unconfirmed names, when every upstream answer fails', async () => {
    const service = new SuggestionService(
      new ScriptedAvailability(() => ({ available: null, status: 'unknown', reason: 'upstream_error' })),
      zone,
      { ...settings, maxRdapChecks: 30 },
    );
    const run = await service.suggest({ keyword: 'coffee', tld: 'com,net' });
    assert.deepEqual(run.suggestions, []);
    assert.equal(run.stats.checked, 30, 'stops at the per-request check budget');
  });

  it('stops at the deadline and says so, keeping only what was confirmed in time', async () => {
    const availability = new ScriptedAvailability((domain) =>
      domain.startsWith('coffee.')
        ? {}
        : new Promise<never>(() => {
            // Never answers: an upstream hanging past the deadline.
          }),
    );
    // Long enough for screening and the immediate answers; the hung checks wait it out.
    const service = new SuggestionService(availability, zone, { ...settings, deadlineMs: testTimeout(1_000) });
    const run = await service.suggest({ keyword: 'coffee' });
    assert.deepEqual(
      run.suggestions.map((s) => s.domain),
      ['coffee.org', 'coffee.io'],
    );
    assert.equal(run.stats.deadline_reached, true);
  });

  it('returns only names the engine confirmed, none in the zone, best first, whatever the answers (property)', async () => {
    const verdicts = fc.constantFrom<Partial<AvailabilityVerdict> | 'throws'>(
      {},
      { available: false, status: 'registered' },
      { available: false, status: 'reserved', source: 'rules' },
      { available: null, status: 'unknown', reason: 'rate_limited' },
      'throws',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('coffee', 'tea', 'coffee shop', 'café'),
        fc.func(verdicts),
        async (keyword, answerFor) => {
          const answers = new Map<string, Partial<AvailabilityVerdict> | 'throws'>();
          const availability = new ScriptedAvailability((domain) => {
            const answer = answerFor(domain);
            answers.set(domain, answer);
            return answer === 'throws' ? Promise.reject(new Error('upstream fault')) : answer;
          });
          const run = await new SuggestionService(availability, zone, settings).suggest({ keyword });
          assert.ok(run.suggestions.length <= 20);
          for (const suggestion of run.suggestions) {
            assert.deepEqual(answers.get(suggestion.domain), {}, `${suggestion.domain} was not confirmed available`);
            assert.notEqual(await zone.isInZone(suggestion.domain), true, `${suggestion.domain} is in the zone`);
          }
          const scores = run.suggestions.map((s) => s.score);
          assert.deepEqual(
            scores,
            [...scores].sort((a, b) => b - a),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('still suggests (RDAP decides) when the zone index fails, and reports the failure', async () => {
    const errors: unknown[] = [];
    const broken = {
      indexedTlds: () => ['com'],
      tldsWithLabel: async () => {
        throw new Error('EIO: i/o error, read');
      },
    };
    const availability = new ScriptedAvailability(() => ({}));
    const service = new SuggestionService(availability, broken, { ...settings, onError: (e) => errors.push(e) });
    const run = await service.suggest({ keyword: 'coffee', tld: 'com' });
    assert.equal(run.suggestions[0]!.domain, 'coffee.com');
    assert.equal(run.stats.in_zone, 0);
    assert.ok(errors.length > 0);
  });

  it('multi-word and IDN keywords: the screened joined form is skipped, the rest ranked', async () => {
    const service = new SuggestionService(new ScriptedAvailability(() => ({})), zone, settings);
    const multi = await service.suggest({ keyword: 'Coffee Shop', tld: 'com' });
    assert.ok(!multi.suggestions.some((s) => s.domain === 'coffeeshop.com'));
    assert.equal(multi.suggestions[0]!.domain, 'coffeeshops.com');

    const idn = await service.suggest({ keyword: 'café', tld: 'com,net' });
    assert.ok(!idn.suggestions.some((s) => s.domain === 'xn--caf-dma.com'), 'café.com is in the zone');
    assert.equal(idn.suggestions[0]!.domain, 'xn--caf-dma.net');
    assert.equal(idn.suggestions[0]!.unicode_domain, 'café.net');
  });

  it('ranks a free name higher when its label is registered in other tracked TLDs', async () => {
    const service = new SuggestionService(new ScriptedAvailability(() => ({})), zone, settings);
    const run = await service.suggest({ keyword: 'tea', tld: 'io' });
    const tea = run.suggestions.find((s) => s.domain === 'tea.io')!;
    const plain = await service.suggest({ keyword: 'tee', tld: 'io' });
    assert.equal(tea.score - plain.suggestions.find((s) => s.domain === 'tee.io')!.score, 9);
  });
});
