import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freeLoopbackPort } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
// The platform's own code signs the launches and sends the callbacks: the sample app is checked against it.
import { PERMISSION_NAMES } from '../../social-platform/src/applications/permissions.ts';
import { buildApp, loadPlatformConfig } from '../../social-platform/src/index.ts';
import { canvasFrameUrl } from '../../social-platform/src/web/canvas-url.ts';
import { type RunningSampleApp, startSampleApp } from '../src/index.ts';

const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0]!;

describe('sample app with its secret: signed exchange, verified launches, callbacks', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sample-app-signed-'));
  let platform: FastifyInstance;
  let platformUrl: string;
  let sample: RunningSampleApp;
  let appId: number;
  let secret: string;
  let counter = 0;

  before(async () => {
    const port = await freeLoopbackPort();
    platformUrl = `http://127.0.0.1:${port}`;
    platform = await buildApp(
      loadPlatformConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: platformUrl,
        CALLBACK_ALLOW_INSECURE: '1',
      }),
      { logger: false },
    );
    await platform.listen({ host: '127.0.0.1', port });
    const ctx = platform.platform;
    const developer = await ctx.users.create({
      userName: 'developer',
      fullName: 'Dev Eloper',
      email: 'dev@example.com',
      password: 'long enough pass',
    });
    // The app is registered first (its secret is shown then), and the app is started with it.
    const created = await ctx.apps.create({
      name: 'Sample app',
      canvasUrl: 'http://127.0.0.1:9/',
      ownerId: developer.id,
      permissions: PERMISSION_NAMES,
      published: true,
      requireSignedExchange: true,
    });
    appId = created.id;
    secret = created.secret;
    sample = await startSampleApp({
      port: 0,
      platformUrl,
      logger: false,
      env: { LOG_LEVEL: 'silent', APP_SECRET: secret },
    });
    await ctx.apps.setCanvasUrl(appId, sample.url);
    await ctx.appEvents.setCallbackUrl(appId, new URL('/platform/events', sample.url).href);
  });
  after(async () => {
    await sample?.close();
    await platform?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A user who allowed the app, and the canvas URL the platform gives them now. */
  async function launch() {
    const ctx = platform.platform;
    const n = ++counter;
    const user = await ctx.users.create({
      userName: `ada-${n}`,
      fullName: 'Ada Lovelace',
      email: `ada${n}@example.com`,
      password: 'long enough pass',
    });
    await ctx.consent.allow(appId, user.id, PERMISSION_NAMES);
    const url = canvasFrameUrl({
      canvasUrl: sample.url,
      key: await ctx.appAuth.issueAppKey(appId, user.id),
      appId,
      userId: user.id,
      platformOrigin: platformUrl,
      secret: ctx.apps.secretOf(await ctx.apps.getById(appId)),
      ts: Math.floor(Date.now() / 1000),
    });
    return { user, url };
  }

  const open = (url: URL | string, cookie?: string) =>
    sample.app.inject({
      url: typeof url === 'string' ? url : `${url.pathname}${url.search}`,
      headers: cookie ? { cookie } : {},
    });

  it('opens from a signed launch, trading the key with sig (the app requires a signed exchange)', async () => {
    const { url } = await launch();
    const opened = await open(url);
    assert.equal(opened.statusCode, 303, opened.body);
    const home = await open('/home', cookieOf(opened.headers['set-cookie']));
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /Ada Lovelace/);
  });

  it('refuses an unsigned, changed or stale launch before asking the platform: the key stays usable', async () => {
    const { user, url } = await launch();
    const unsigned = new URL(url);
    unsigned.searchParams.delete('sign');
    const changed = new URL(url);
    changed.searchParams.set('user_id', String(user.id + 1));
    const keyOnly = `/?key=${url.searchParams.get('key')}`;
    for (const refused of [unsigned, changed, keyOnly]) {
      const answer = await open(refused);
      assert.equal(answer.statusCode, 403, String(refused));
      assert.match(answer.body, /launch_refused/);
    }
    const stale = await launch();
    const ts = Number(stale.url.searchParams.get('ts')) - 400;
    const old = canvasFrameUrl({
      canvasUrl: sample.url,
      key: stale.url.searchParams.get('key')!,
      appId,
      userId: stale.user.id,
      platformOrigin: platformUrl,
      secret,
      ts,
    });
    assert.match((await open(old)).body, /too old/);
    // Nothing was spent: the genuine launch still opens.
    assert.equal((await open(url)).statusCode, 303);
  });

  it('hears app.deauthorized when the user removes it (their session ends) and completes a data deletion', async () => {
    const ctx = platform.platform;
    const { user, url } = await launch();
    const cookie = cookieOf((await open(url)).headers['set-cookie']);
    assert.equal((await open('/home', cookie)).statusCode, 200);

    const removal = await ctx.appRemoval.remove(appId, user.id, { deleteData: true });
    await ctx.appEvents.settled();
    const types = sample.app.sample.events.filter((event) => event.data.user_id === user.id).map((event) => event.type);
    assert.deepEqual(types, ['app.deauthorized', 'user.data_deletion_requested']);
    assert.equal((await open('/home', cookie)).statusCode, 401, 'the session ended with the removal');
    assert.equal((await ctx.dataDeletion.get(removal.deletionRequest!.id)).status, 'completed');
    const events = await ctx.appEvents.recent(appId);
    assert.ok(events.every((event) => event.state === 'delivered'));
  });

  it('refuses a callback that is not signed with its key', async () => {
    const body = JSON.stringify({
      type: 'app.deauthorized',
      timestamp: new Date().toISOString(),
      data: { user_id: 1 },
    });
    const forged = await sample.app.inject({
      method: 'POST',
      url: '/platform/events',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
    });
    assert.equal(forged.statusCode, 401);
  });
});
