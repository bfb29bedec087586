import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import fc from 'fast-check';
import { localRedirectPath } from '../src/web/local-redirect.ts';
import { createTestApp, PUBLIC_URL, type TestApp } from './helpers.ts';
import { signUp, type WebClient } from './web-client.ts';

const ORIGIN = new URL(PUBLIC_URL).origin;

/** What open-redirect payloads are made of: separators in every spelling, dot segments, schemes, hosts. */
const PIECES = [
  '/',
  '//',
  '/\\',
  '\\',
  '.',
  '..',
  './',
  '../',
  '%2F',
  '%2f',
  '%5C',
  '%2E',
  '%252F',
  '%255C',
  '%25252F',
  '\t',
  '\n',
  '\r',
  ' ',
  '\u0000',
  '\u000b',
  'evil.example',
  'platform.test',
  'platform.test.evil.example',
  '@',
  ':',
  '?',
  '#',
  '&',
  'https:',
  'http:',
  'HTTPS:',
  'javascript:',
  'data:',
  'ftp:',
  '\uff0f',
  '\uff3c',
  '\u3002',
  '\u2028',
  '\u00a0',
  'ｅｖｉｌ',
  'é',
  '😀',
  'x',
];

/** One decoding less than the server will apply: raw, once or twice percent-encoded. */
const encodedLayers = (value: string, layers: number) => {
  let text = value;
  for (let i = 0; i < layers; i++) text = encodeURIComponent(text);
  return text;
};

const redirectInput = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((parts) => parts.join('')) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }), fc.integer({ min: 1, max: 2 }))
      .map(([parts, layers]) => encodedLayers(parts.join(''), layers)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** A Location the browser resolves against the page it came from: it must stay on the platform. */
function assertStaysOnSite(location: unknown, input: string) {
  assert.equal(typeof location, 'string', JSON.stringify(input));
  const where = location as string;
  assert.ok(
    where.startsWith('/') && !where.startsWith('//') && !where.startsWith('/\\'),
    JSON.stringify([input, where]),
  );
  assert.equal(new URL(where, ORIGIN).origin, ORIGIN, JSON.stringify([input, where]));
}

/** Characters the platform refuses with 400 invalid_characters before any page runs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the refused characters are control characters
const REFUSED_IN_QUERY = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the refused characters are control characters
const REFUSED_IN_FORM = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

describe('localRedirectPath', () => {
  it('keeps a path of the site, with its query and fragment, as the browser would resolve it', () => {
    for (const [input, expected] of [
      ['/photos?page=2', '/photos?page=2'],
      ['/u/ada#photos', '/u/ada#photos'],
      ['/a/../people?q=x', '/people?q=x'],
      [`${ORIGIN}/inbox`, '/inbox'],
      ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
      ['/caf\u00e9', '/caf%C3%A9'],
      // Same scheme as the site and no slashes: a relative path, as the browser reads it.
      ['https:evil.example', '/evil.example'],
    ]) {
      assert.equal(localRedirectPath(input, ORIGIN), expected, input);
    }
  });

  it('sends everything that would leave the site, or is no text, to /', () => {
    for (const input of [
      '/.//evil.example',
      '/./\\evil.example',
      '/..//evil.example',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '\t//evil.example',
      'https://evil.example/',
      'https://platform.test.evil.example/',
      'https://platform.test@evil.example/',
      'http://platform.test/',
      'javascript:alert(1)',
      'data:text/html,x',
      '',
      'x'.repeat(3000),
      undefined,
      ['/photos'],
    ]) {
      assert.equal(localRedirectPath(input, ORIGIN), '/', JSON.stringify(input));
    }
  });

  it('never gives a target a browser would take off the site (property)', () => {
    fc.assert(
      fc.property(redirectInput, (input) => {
        assertStaysOnSite(localRedirectPath(input, ORIGIN), input);
      }),
      { numRuns: 5000 },
    );
  });
});

for (const target of databaseTargets()) {
  describe(`redirects after log-in and friend buttons stay on the site (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let ada: WebClient;
    before(async () => {
      t = await createTestApp({ target });
      ada = await signUp(t.app, { userName: 'ada', fullName: 'Ada Lovelace' });
      await signUp(t.app, { userName: 'bob', fullName: 'Bob Babbage' });
    });
    after(() => t.close());

    const signedInLogin = (input: string) => ada.get(`/login?next=${encodeURIComponent(input)}`);
    const friendButton = (input: string) => ada.post('/friends/bob/unfriend', { back: input });

    it('sends a signed-in visitor of /login?next=%2F.%2F%2Fevil.example home, not to //evil.example', async () => {
      const response = await ada.get('/login?next=%2F.%2F%2Fevil.example');
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/');
    });

    it('sends the friend buttons back to /, not to //evil.example, for back=/.//evil.example', async () => {
      for (const back of ['/.//evil.example', '/./\\evil.example', '%2F%2Fevil.example']) {
        const response = await friendButton(back);
        assert.equal(response.statusCode, 303, response.body);
        assert.equal(response.headers.location, back.startsWith('%') ? '/%2F%2Fevil.example' : '/', back);
      }
      const kept = await friendButton('/friends?page=2');
      assert.equal(kept.headers.location, '/friends?page=2');
    });

    it('never sends a Location off the site, for next= or back= (property over generated inputs)', async () => {
      await fc.assert(
        fc.asyncProperty(redirectInput, async (input) => {
          const login = await signedInLogin(input);
          if (REFUSED_IN_QUERY.test(input)) assert.equal(login.statusCode, 400, JSON.stringify(input));
          else {
            assert.equal(login.statusCode, 303, JSON.stringify(input));
            assertStaysOnSite(login.headers.location, input);
          }
          const back = await friendButton(input);
          if (REFUSED_IN_FORM.test(input)) assert.equal(back.statusCode, 400, JSON.stringify(input));
          else {
            assert.equal(back.statusCode, 303, JSON.stringify(input));
            assertStaysOnSite(back.headers.location, input);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
}
