import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEED_FILTER_PARAMETERS, FEED_FILTER_WIRE, type FeedFilterValue } from '@repo/contracts/domain-intel';
import { DomainIntelClient } from '../src/domain-intel-client.ts';
import type { FeedQuery, SdkName } from '../src/domain-intel-types.ts';

/** A value of each kind as the SDK takes it, and as the wire must carry it. */
const SAMPLES: Record<FeedFilterValue, [unknown, string]> = {
  'tld-list': [['com', 'net'], 'com,net'],
  'whole-number': [7, '7'],
  date: [new Date('2026-03-01T06:00:00Z'), '2026-03-01T06:00:00.000Z'],
  status: ['pending-delete', 'pending-delete'],
  allowed: [false, 'false'],
  'label-text': ['shop', 'shop'],
};

const sdkName = <P extends string>(parameter: P) =>
  parameter.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as SdkName<P>;

describe('the feed query fields (one per wire filter, named in camelCase)', () => {
  it('sends every filter under its wire name, written as the wire writes its kind of value', async () => {
    const sent: URL[] = [];
    const client = new DomainIntelClient({
      baseUrl: 'http://feed.test',
      apiKey: 'di_live_test',
      fetch: async (input) => {
        sent.push(new URL(String(input)));
        return Response.json({ data: [], meta: { total: 0, limit: 50, offset: 0 } });
      },
    });
    const query: Record<string, unknown> = { sort: 'da', limit: 10 };
    for (const parameter of FEED_FILTER_PARAMETERS)
      query[sdkName(parameter)] = SAMPLES[FEED_FILTER_WIRE[parameter].value][0];
    await client.domains(query as FeedQuery);
    const expected = Object.fromEntries([
      ...FEED_FILTER_PARAMETERS.map((parameter) => [parameter, SAMPLES[FEED_FILTER_WIRE[parameter].value][1]]),
      ['sort', 'da'],
      ['limit', '10'],
    ]);
    assert.deepEqual(Object.fromEntries(sent[0]!.searchParams), expected);
  });

  it('names fields by the template-literal type the client maps back', () => {
    const names: Array<SdkName<'min_alt_tlds' | 'ends_with' | 'tld'>> = ['minAltTlds', 'endsWith', 'tld'];
    assert.deepEqual(names, ['min_alt_tlds', 'ends_with', 'tld'].map(sdkName));
  });
});
