import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { canvasFrameUrl } from '../../../apps/social-platform/src/web/canvas-url.ts';
import {
  LaunchVerificationError,
  PlatformAppClient,
  PlatformError,
  signDeletionReport,
  WebhookVerificationError,
} from '../src/index.ts';
import { type RunningPlatform, startPlatform } from './servers.ts';

/** An app's callback endpoint on loopback that keeps each POST's raw body and headers. */
async function startReceiver() {
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const target of databaseTargets()) {
  describe(`PlatformAppClient: signed exchange, launches and webhooks (${target.name})`, { skip: target.skip }, () => {
    let t: RunningPlatform;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let app: { id: number; secret: string };
    let user: { id: number };

    before(async () => {
      receiver = await startReceiver();
      t = await startPlatform(target, { CALLBACK_ALLOW_INSECURE: '1' });
      const developer = await t.user('developer');
      user = await t.user('player');
      app = await t.ctx.apps.create({
        name: 'Signed app',
        canvasUrl: 'https://app.test/',
        ownerId: developer.id,
        published: true,
        requireSignedExchange: true,
      });
      await t.ctx.appEvents.setCallbackUrl(app.id, receiver.url);
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
    });

    const issueKey = async () => {
      await t.ctx.consent.allow(app.id, user.id, ['basic_profile']);
      return t.ctx.appAuth.issueAppKey(app.id, user.id);
    };

    it('signs the exchange with the app secret; without it the platform answers signature_required', async () => {
      const key = await issueKey();
      const unsigned = await PlatformAppClient.fromKey({ baseUrl: t.baseUrl, key }).catch((error: unknown) => error);
      assert.ok(unsigned instanceof PlatformError);
      assert.equal(unsigned.code, 'signature_required');
      const client = await PlatformAppClient.fromKey({ baseUrl: t.baseUrl, key, appSecret: app.secret });
      assert.equal((await client.getUser()).user_id, user.id);
    });

    it('verifies the launch the platform signs, and refuses a changed, foreign or stale one', async () => {
      const now = t.clock.now();
      const url = canvasFrameUrl({
        canvasUrl: 'https://app.test/?lang=en',
        key: await issueKey(),
        appId: app.id,
        userId: user.id,
        platformOrigin: 'https://platform.test',
        secret: t.ctx.apps.secretOf(await t.ctx.apps.getById(app.id)),
        ts: Math.floor(now / 1000),
      });
      const launch = await PlatformAppClient.verifyLaunch(url.searchParams, app.secret, { now, appId: app.id });
      assert.deepEqual(
        { appId: launch.appId, userId: launch.userId, platformOrigin: launch.platformOrigin },
        { appId: app.id, userId: user.id, platformOrigin: 'https://platform.test' },
      );
      assert.equal(launch.key, url.searchParams.get('key'));
      // The same check on a query string and on a parsed query object.
      await PlatformAppClient.verifyLaunch(url.search, app.secret, { now });
      await PlatformAppClient.verifyLaunch(Object.fromEntries(url.searchParams), app.secret, { now });

      const reason = (promise: Promise<unknown>) =>
        promise.then(
          () => 'accepted',
          (error: unknown) => (error instanceof LaunchVerificationError ? error.reason : String(error)),
        );
      const changed = new URLSearchParams(url.searchParams);
      changed.set('user_id', String(user.id + 1));
      assert.equal(await reason(PlatformAppClient.verifyLaunch(changed, app.secret, { now })), 'invalid_signature');
      assert.equal(
        await reason(PlatformAppClient.verifyLaunch(url.searchParams, 'sps_other', { now })),
        'invalid_signature',
      );
      const later = now + 301_000;
      assert.equal(
        await reason(PlatformAppClient.verifyLaunch(url.searchParams, app.secret, { now: later })),
        'stale_launch',
      );
      const unsigned = new URLSearchParams(url.searchParams);
      unsigned.delete('ts');
      assert.equal(await reason(PlatformAppClient.verifyLaunch(unsigned, app.secret, { now })), 'missing_parameter');
      assert.equal(
        await reason(PlatformAppClient.verifyLaunch(url.searchParams, app.secret, { now, appId: app.id + 1 })),
        'wrong_app',
      );
    });

    it("verifies the platform's callbacks (signed by the shared sender) and reports a deletion as done", async () => {
      await issueKey();
      receiver.received.length = 0;
      await t.ctx.appRemoval.remove(app.id, user.id, { deleteData: true });
      await t.ctx.appEvents.settled();
      assert.equal(receiver.received.length, 2);
      const [first, second] = receiver.received;
      const deauthorized = await PlatformAppClient.verifyWebhook(first!.body, first!.headers, app.secret);
      assert.equal(deauthorized.type, 'app.deauthorized');
      assert.equal(deauthorized.id, first!.headers['webhook-id']);
      const deletion = await PlatformAppClient.verifyWebhook(second!.body, second!.headers, app.secret);
      assert.equal(deletion.type, 'user.data_deletion_requested');

      const refused = (body: string, headers: IncomingHttpHeaders, secret = app.secret, now?: number) =>
        PlatformAppClient.verifyWebhook(body, headers, secret, { now }).then(
          () => false,
          (error: unknown) => error instanceof WebhookVerificationError,
        );
      assert.ok(await refused(first!.body.replace('"user_id":', '"user_id": '), first!.headers));
      assert.ok(await refused(first!.body, first!.headers, 'sps_other'));
      assert.ok(await refused(first!.body, { ...first!.headers, 'webhook-id': 'msg_other' }));
      assert.ok(await refused(first!.body, first!.headers, app.secret, Date.now() + 600_000));

      if (deletion.type !== 'user.data_deletion_requested') throw new Error('unreachable');
      const report = await signDeletionReport(app.secret, deletion.data.request_id, 'completed', t.clock.now());
      const statusPath = new URL(deletion.data.status_url).pathname;
      const answer = await fetch(`${t.baseUrl}${statusPath}`, { method: 'POST', body: new URLSearchParams(report) });
      assert.equal(answer.status, 200);
      assert.equal(((await answer.json()) as { output: { status: string } }).output.status, 'completed');
    });
  });
}
