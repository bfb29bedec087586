import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildSampleApp, loadSampleAppConfig } from '../src/index.ts';
import { type RunningPlatform, seedPlatform, startPlatform } from './real-platform.ts';

const cookieOf = (response: LightMyRequestResponse) => String(response.headers['set-cookie']).split(';')[0]!;

/** A clock the test moves; the platform reads it for key and token lifetimes. */
class TestClock {
  #now = Date.now();
  now = () => this.#now;
  advance(ms: number) {
    this.#now += ms;
  }
}

describe('sample app: the platform’s rate limit and the end of a token', () => {
  const clock = new TestClock();
  let platform: RunningPlatform;
  let sample: FastifyInstance;

  before(async () => {
    platform = await startPlatform({
      env: { API_RATE_LIMIT: '12', API_RATE_WINDOW_SECONDS: '60', TOKEN_TTL_SECONDS: '600' },
      clock,
    });
    sample = await buildSampleApp(loadSampleAppConfig({ PLATFORM_URL: platform.url, LOG_LEVEL: 'silent' }), {
      logger: false,
    });
  });
  after(async () => {
    await sample?.close();
    await platform?.close();
  });

  const open = async (key: string, appId: number) => {
    const response = await sample.inject({
      url: '/',
      query: { key, app_id: String(appId), platform_origin: new URL(platform.url).origin },
    });
    assert.equal(response.statusCode, 303, response.body);
    return cookieOf(response);
  };

  it('passes a 429 on with Retry-After and a way to try again, keeping the session', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const cookie = await open(await issueKey(), application.id);
    assert.equal((await sample.inject({ url: '/home', headers: { cookie } })).statusCode, 200);
    // The limit counts per app and user: another token of the same user spends what is left.
    const token = (await (await fetch(`${platform.url}/token.php?key=${await issueKey()}`)).json()).token as string;
    let status = 200;
    while (status !== 429) {
      status = (await fetch(`${platform.url}/api.php?token=${token}&method=mail.getNewCount`)).status;
    }
    const limited = await sample.inject({ url: '/home?friends_page=1', headers: { cookie } });
    assert.equal(limited.statusCode, 429);
    assert.match(String(limited.headers['retry-after']), /^\d+$/);
    assert.match(limited.body, /The platform asks the app to slow down/);
    assert.match(limited.body, /Try again in \d+ seconds\./);
    assert.match(limited.body, /<a class="button" href="\/home\?friends_page=1">Try again<\/a>/);
    assert.match(limited.body, /rate_limited/);
    assert.ok(sample.sample.sessions.get(cookie.split('=')[1]), 'the session is kept: a 429 is no reason to reopen');
  });

  it('when the token ends, drops the session and offers to open the app again through the platform', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const cookie = await open(await issueKey(), application.id);
    const home = await sample.inject({ url: '/home', headers: { cookie } });
    assert.equal(home.statusCode, 200);
    // The page loads the platform's canvas.js with the origin the platform passed.
    assert.match(
      home.body,
      new RegExp(
        `<script src="${platform.url}/js/canvas\\.js" data-platform-origin="${new URL(platform.url).origin}" data-auto-resize defer></script>`,
      ),
    );
    assert.match(String(home.headers['content-security-policy']), new RegExp(`script-src ${platform.url}(;|$)`));

    clock.advance(601_000);
    const expired = await sample.inject({ url: '/home', headers: { cookie } });
    assert.equal(expired.statusCode, 401);
    assert.match(expired.body, /Please open the app again/);
    assert.match(expired.body, /token_expired/);
    assert.match(
      expired.body,
      new RegExp(`href="${platform.url}/apps/${application.id}"[^>]*data-platform-reopen`),
      'the button asks the platform to reopen the app (canvas.js), or opens it in a new tab',
    );
    const after = await sample.inject({ url: '/home', headers: { cookie } });
    assert.equal(after.statusCode, 401);
    assert.match(after.body, /session_ended/, 'the session holding the dead token is gone');

    // Reopening is what the platform does: a new key, a new token, a working page.
    const reopened = await open(await issueKey(), application.id);
    assert.equal((await sample.inject({ url: '/home', headers: { cookie: reopened } })).statusCode, 200);
  });

  it('ignores a platform_origin that is not its platform’s', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const response = await sample.inject({
      url: '/',
      query: { key: await issueKey(), app_id: String(application.id), platform_origin: 'https://evil.example' },
    });
    assert.equal(response.statusCode, 303);
    const home = await sample.inject({ url: '/home', headers: { cookie: cookieOf(response) } });
    assert.equal(home.statusCode, 200);
    assert.doesNotMatch(home.body, /evil\.example/);
    assert.doesNotMatch(home.body, /data-platform-origin/);
  });
});
