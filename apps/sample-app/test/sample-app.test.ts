import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { buildSampleApp, loadSampleAppConfig } from '../src/index.ts';
import { type RunningPlatform, seedPlatform, startPlatform } from './real-platform.ts';

const cookieOf = (response: LightMyRequestResponse) => String(response.headers['set-cookie']).split(';')[0]!;
const formTokenOf = (page: string) => /name="form_token" value="([^"]+)"/.exec(page)?.[1] ?? '';

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = '----sample-app-test';
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('sample app against a real platform', () => {
  let platform: RunningPlatform;
  let sample: FastifyInstance;

  before(async () => {
    platform = await startPlatform();
    sample = await buildSampleApp(loadSampleAppConfig({ PLATFORM_URL: platform.url, LOG_LEVEL: 'silent' }), {
      logger: false,
    });
  });
  after(async () => {
    await sample?.close();
    await platform?.close();
  });

  /** Opens the app the way the canvas iframe does; returns the session cookie. */
  const open = async (key: string, appId: number) => {
    const response = await sample.inject({ url: '/', query: { key, app_id: String(appId) } });
    assert.equal(response.statusCode, 303, response.body);
    assert.equal(response.headers.location, '/home', 'the spent key leaves the address bar');
    return cookieOf(response);
  };

  it('trades the key server-side and shows profile, friends, counts and notifications', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const opened = await sample.inject({ url: '/', query: { key: await issueKey(), app_id: String(application.id) } });
    const setCookie = String(opened.headers['set-cookie']);
    assert.match(setCookie, /^sample_app_session=[\w-]+; Max-Age=1800; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.doesNotMatch(setCookie, /spt_/, 'the platform token never goes to the browser');

    const home = await sample.inject({ url: '/home', headers: { cookie: cookieOf(opened) } });
    assert.equal(home.statusCode, 200);
    assert.doesNotMatch(home.body, /spt_/);
    assert.match(home.body, /data-testid="user-name">Ada Lovelace</);
    assert.match(home.body, /Bob Builder/);
    assert.match(home.body, /data-testid="unseen-mail">1</);
    assert.match(home.body, /data-testid="unseen-notifications">1</);
    assert.match(home.body, /Bob Builder sent you a message\./);
    assert.match(home.body, /No photos yet/);
    assert.equal(home.headers['cache-control'], 'no-store');
  });

  it('uploads a photo through photo.addPhoto and shows the seven sizes', async () => {
    const { ada, application, issueKey } = await seedPlatform(platform);
    const cookie = await open(await issueKey(), application.id);
    const home = await sample.inject({ url: '/home', headers: { cookie } });
    const image = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const form = multipart(
      { form_token: formTokenOf(home.body), photo_name: 'harbour.jpg' },
      {
        name: 'IMG_0001.jpg',
        type: 'image/jpeg',
        data: image,
      },
    );
    const uploaded = await sample.inject({
      method: 'POST',
      url: '/photos',
      headers: { cookie, 'content-type': form.contentType },
      payload: form.payload,
    });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    for (const size of ['original', '75px', '100px', '150px', '240px', '500px', '1024px']) {
      assert.match(uploaded.body, new RegExp(`<span class="size-label">${size}</span>`));
    }
    assert.equal((uploaded.body.match(/<img src="http:\/\/127\.0\.0\.1:3100\/media\//g) ?? []).length, 7);
    const stored = await platform.app.platform.photos.list(ada.id, ada.id, { page: 1, perPage: 10 });
    assert.equal(stored.total, 1);
    assert.equal(stored.items[0]?.name, 'harbour.jpg');
    assert.match((await sample.inject({ url: '/home', headers: { cookie } })).body, /data-testid="photos"/);
  });

  it('shows the platform refusing a file that is not an image, and refuses a forged form', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const cookie = await open(await issueKey(), application.id);
    const token = formTokenOf((await sample.inject({ url: '/home', headers: { cookie } })).body);
    const text = multipart(
      { form_token: token },
      { name: 'notes.jpg', type: 'image/jpeg', data: Buffer.from('hello') },
    );
    const refused = await sample.inject({
      method: 'POST',
      url: '/photos',
      headers: { cookie, 'content-type': text.contentType },
      payload: text.payload,
    });
    assert.equal(refused.statusCode, 415);
    assert.match(refused.body, /The platform refused the photo: .*not an image.*\(unsupported_image_type\)/);

    const forged = multipart({ form_token: 'forged' }, { name: 'a.jpg', type: 'image/jpeg', data: Buffer.from('x') });
    const forbidden = await sample.inject({
      method: 'POST',
      url: '/photos',
      headers: { cookie, 'content-type': forged.contentType },
      payload: forged.payload,
    });
    assert.equal(forbidden.statusCode, 403);
    const noFile = multipart({ form_token: token });
    const missing = await sample.inject({
      method: 'POST',
      url: '/photos',
      headers: { cookie, 'content-type': noFile.contentType },
      payload: noFile.payload,
    });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.body, /Choose a photo to upload/);
  });

  it('pages through friends ten at a time', async () => {
    const { ada, application, issueKey } = await seedPlatform(platform);
    const ctx = platform.app.platform;
    for (let i = 0; i < 11; i++) {
      const friend = await ctx.users.create({
        userName: `friend-${ada.id}-${i}`,
        fullName: `Friend ${String(i).padStart(2, '0')}`,
        email: `friend-${ada.id}-${i}@example.com`,
        password: 'long enough pass',
      });
      await ctx.friends.befriend(ada.id, friend.id);
    }
    const cookie = await open(await issueKey(), application.id);
    const first = await sample.inject({ url: '/home', headers: { cookie } });
    assert.match(first.body, /12 in all/);
    assert.match(first.body, /Page 1 of 2/);
    assert.match(first.body, /href="\/home\?friends_page=2"/);
    const second = await sample.inject({ url: '/home?friends_page=2', headers: { cookie } });
    assert.match(second.body, /Page 2 of 2/);
    assert.equal((second.body.match(/<li>\s*(<img[^>]*>)?\s*<span>/g) ?? []).length, 2);
    assert.equal((await sample.inject({ url: '/home?friends_page=0', headers: { cookie } })).statusCode, 400);
  });

  it('shows a replayed key as refused, and a reopened app ends the old session', async () => {
    const { application, issueKey } = await seedPlatform(platform);
    const firstKey = await issueKey();
    const oldSession = await open(firstKey, application.id);
    const replay = await sample.inject({ url: '/', query: { key: firstKey } });
    assert.equal(replay.statusCode, 401);
    assert.match(replay.body, /already been exchanged/);
    assert.match(replay.body, /key_already_used/);
    // The platform revoked the token the replayed key gave, so the old session's calls are refused.
    const afterReplay = await sample.inject({ url: '/home', headers: { cookie: oldSession } });
    assert.equal(afterReplay.statusCode, 401);
    assert.match(afterReplay.body, /Please open the app again/);

    const newSession = await open(await issueKey(), application.id);
    assert.equal((await sample.inject({ url: '/home', headers: { cookie: newSession } })).statusCode, 200);
  });

  it('asks visitors without a session to open it from the platform, and only lets the platform frame it', async () => {
    const welcome = await sample.inject({ url: '/' });
    assert.equal(welcome.statusCode, 200);
    assert.match(welcome.body, /Open this app from the platform/);
    const csp = String(welcome.headers['content-security-policy']);
    assert.match(csp, new RegExp(`frame-ancestors ${platform.url}(;|$)`));
    assert.match(csp, /default-src 'none'/);
    assert.equal(welcome.headers['x-frame-options'], undefined);
    const home = await sample.inject({ url: '/home' });
    assert.equal(home.statusCode, 401);
    assert.match(home.body, /session_ended/);
    const badKey = await sample.inject({ url: '/', query: { key: 'x'.repeat(600) } });
    assert.equal(badKey.statusCode, 400);
    assert.equal((await sample.inject({ url: '/nowhere' })).statusCode, 404);
  });
});

describe('sample app when the platform is down', () => {
  it('says the platform could not be reached, with a 502', async () => {
    const sample = await buildSampleApp(
      loadSampleAppConfig({ PLATFORM_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent', PLATFORM_TIMEOUT_MS: '2000' }),
      { logger: false },
    );
    try {
      const response = await sample.inject({ url: '/', query: { key: 'spk_anything' } });
      assert.equal(response.statusCode, 502);
      assert.match(response.body, /could not be reached/);
      assert.match(response.body, /platform_unreachable/);
    } finally {
      await sample.close();
    }
  });
});
