import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from './helpers.ts';
import { signUp } from './web-client.ts';

interface Delivery {
  headers: IncomingHttpHeaders;
  payload: string;
}

/** An app's callback endpoint on loopback: keeps every POST and answers with the status the test sets. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, payload: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform-events`,
    deliveries,
    answer(next: number) {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The guide's derivation, written out here: whsec_ + base64(HMAC-SHA256(app secret, label)). */
const webhookSecret = (appSecret: string) =>
  `whsec_${createHmac('sha256', appSecret).update('social-platform webhook key v1').digest('base64')}`;

/** A delivery checked as an app would: the Standard Webhooks library with the derived key. */
const verified = (delivery: Delivery, appSecret: string) =>
  new Webhook(webhookSecret(appSecret)).verify(delivery.payload, delivery.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

const HOUR = 3_600_000;

for (const target of databaseTargets()) {
  describe(`callbacks to apps (${target.name})`, { skip: target.skip }, () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    async function withApp(run: (t: TestApp) => Promise<void>, env: Record<string, string> = {}) {
      receiver.deliveries.length = 0;
      receiver.answer(200);
      const t = await createTestApp({ target, redis: true, env: { CALLBACK_ALLOW_INSECURE: '1', ...env } });
      try {
        await run(t);
      } finally {
        await t.close();
      }
    }

    async function appWithCallback(t: TestApp) {
      const owner = await t.user('owner');
      const user = await t.user('player');
      const application = await t.ctx.apps.create({
        name: 'Quiz',
        canvasUrl: 'https://quiz.test/',
        ownerId: owner.id,
        permissions: ['basic_profile'],
        published: true,
      });
      await t.ctx.appEvents.setCallbackUrl(application.id, receiver.url);
      await t.ctx.consent.allow(application.id, user.id, ['basic_profile']);
      return { owner, user, application };
    }

    it('removal: app.deauthorized and user.data_deletion_requested, signed with the derived key; the app reports at the status URL', () =>
      withApp(async (t) => {
        const { user, application } = await appWithCallback(t);
        const removal = await t.ctx.appRemoval.remove(application.id, user.id, { deleteData: true });
        assert.equal(removal.removed, true);
        await t.ctx.appEvents.settled();
        assert.equal(receiver.deliveries.length, 2);
        const [deauthorized, deletion] = receiver.deliveries.map((delivery) => verified(delivery, application.secret));
        assert.equal(deauthorized!.type, 'app.deauthorized');
        assert.deepEqual(deauthorized!.data, {
          app_id: application.id,
          user_id: user.id,
          deauthorized_at: '2026-03-10T12:00:00.000Z',
        });
        assert.equal(deletion!.type, 'user.data_deletion_requested');
        const requestId = String(deletion!.data.request_id);
        assert.equal(deletion!.data.status_url, `https://platform.test/apps/data-deletion/${requestId}`);
        // Not verifiable with the app secret itself, nor with another app's key.
        assert.throws(() =>
          new Webhook(`whsec_${Buffer.from(application.secret).toString('base64')}`).verify(
            receiver.deliveries[0]!.payload,
            receiver.deliveries[0]!.headers as Record<string, string>,
          ),
        );

        const path = `/apps/data-deletion/${requestId}`;
        const status = await t.app.inject(path);
        assert.equal(status.statusCode, 200);
        assert.equal(status.json().output.status, 'requested');
        const ts = String(Math.floor(t.clock.now() / 1000));
        const sign = (text: string) => createHmac('sha256', application.secret).update(text).digest('hex');
        const report = (fields: Record<string, string>) =>
          t.app.inject({
            method: 'POST',
            url: path,
            payload: new URLSearchParams(fields).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
        const forged = await report({
          status: 'completed',
          ts,
          sign: sign(`request_id=${requestId}&status=in_progress&ts=${ts}`),
        });
        assert.equal(forged.statusCode, 400);
        assert.equal(forged.json().output.error.code, 'invalid_deletion_report');
        const staleTs = String(Number(ts) - 3600);
        const stale = await report({
          status: 'completed',
          ts: staleTs,
          sign: sign(`request_id=${requestId}&status=completed&ts=${staleTs}`),
        });
        assert.equal(stale.json().output.error.code, 'invalid_deletion_report');
        const done = await report({
          status: 'completed',
          ts,
          sign: sign(`request_id=${requestId}&status=completed&ts=${ts}`),
        });
        assert.equal(done.statusCode, 200, done.body);
        assert.equal(done.json().output.status, 'completed');
        assert.equal((await t.app.inject(path)).json().output.status, 'completed');
        // A second Remove is no news to the app.
        assert.equal((await t.ctx.appRemoval.remove(application.id, user.id)).removed, false);
        await t.ctx.appEvents.settled();
        assert.equal(receiver.deliveries.length, 2);
      }));

    it('the settings page removes an app and tells it; the tick box asks for deletion', () =>
      withApp(async (t) => {
        const owner = await t.user('owner');
        const application = await t.ctx.apps.create({
          name: 'Quiz',
          canvasUrl: 'https://quiz.test/',
          ownerId: owner.id,
          published: true,
        });
        await t.ctx.appEvents.setCallbackUrl(application.id, receiver.url);
        const bob = await signUp(t.app, { userName: 'bob', fullName: 'Bob Builder' });
        await bob.get(`/apps/${application.id}`);
        await bob.post(`/apps/${application.id}/allow`, {});
        await bob.get('/settings/apps');
        const removed = await bob.post(`/settings/apps/${application.id}/remove`, { deleteData: '1' });
        assert.equal(removed.statusCode, 303);
        await t.ctx.appEvents.settled();
        const types = receiver.deliveries.map((delivery) => verified(delivery, application.secret).type);
        assert.deepEqual(types, ['app.deauthorized', 'user.data_deletion_requested']);
      }));

    it('app.permissions_changed when a user allows a changed list, not on a first grant or the same list', () =>
      withApp(async (t) => {
        const { user, application } = await appWithCallback(t);
        await t.ctx.consent.allow(application.id, user.id, ['basic_profile']);
        await t.ctx.consent.allow(application.id, user.id, ['basic_profile', 'friends']);
        await t.ctx.appEvents.settled();
        assert.equal(receiver.deliveries.length, 1);
        const event = verified(receiver.deliveries[0]!, application.secret);
        assert.equal(event.type, 'app.permissions_changed');
        assert.deepEqual(event.data, {
          app_id: application.id,
          user_id: user.id,
          permissions: ['basic_profile', 'friends'],
          previous_permissions: ['basic_profile'],
        });
      }));

    it('retries with back-off under one webhook-id, gives up after 24 h, and the console redelivers', () =>
      withApp(async (t) => {
        const { user, application } = await appWithCallback(t);
        receiver.answer(500);
        await t.ctx.appRemoval.remove(application.id, user.id);
        await t.ctx.appEvents.settled();
        let [event] = await t.ctx.appEvents.recent(application.id);
        assert.equal(event!.state, 'pending');
        assert.equal(event!.attempts, 1);
        assert.equal(event!.last_status, 500);
        assert.equal(event!.next_attempt_at, t.clock.now() + 30_000);
        assert.deepEqual(await t.ctx.appEvents.deliverDue(), { delivered: 0, retrying: 0, failed: 0 });
        // 30 s, then doubling, at most 3 h: the attempts of a day, until it is given up.
        let waited = 0;
        while (event!.state === 'pending') {
          const wait = event!.next_attempt_at - t.clock.now();
          waited += wait;
          t.clock.advance(wait);
          await t.ctx.appEvents.deliverDue();
          [event] = await t.ctx.appEvents.recent(application.id);
        }
        assert.equal(event!.state, 'failed');
        assert.ok(waited >= 24 * HOUR && waited < 27 * HOUR, String(waited));
        const ids = new Set(receiver.deliveries.map((delivery) => delivery.headers['webhook-id']));
        assert.deepEqual([...ids], [event!.id]);
        assert.equal(receiver.deliveries.length, event!.attempts);

        receiver.answer(204);
        // The developer signs in to the console (the app is handed to an account with a password).
        const dev = await signUp(t.app, { userName: 'dev', fullName: 'Dev Eloper' });
        const devId = (await t.ctx.users.findByUserName('dev'))!.id;
        await t.ctx.database.db
          .updateTable('applications')
          .set({ owner_id: devId })
          .where('id', '=', application.id)
          .execute();
        const log = await dev.get(`/developer/apps/${application.id}/credentials`);
        assert.match(log.body, /data-testid="delivery-log"/);
        assert.match(log.body, /The webhook answered HTTP 500\./);
        assert.equal(
          (await dev.post(`/developer/apps/${application.id}/credentials/redeliver`, { value: event!.id })).statusCode,
          303,
        );
        await t.ctx.appEvents.settled();
        [event] = await t.ctx.appEvents.recent(application.id);
        assert.equal(event!.state, 'delivered');
        assert.equal(receiver.deliveries.at(-1)!.headers['webhook-id'], event!.id);
        verified(receiver.deliveries.at(-1)!, application.secret);
      }));

    it('an app without a callback URL: events are logged, nothing is sent; settled events go after 30 days', () =>
      withApp(async (t) => {
        const owner = await t.user('owner');
        const user = await t.user('player');
        const application = await t.ctx.apps.create({
          name: 'Quiet',
          canvasUrl: 'https://quiet.test/',
          ownerId: owner.id,
          published: true,
        });
        await t.ctx.consent.allow(application.id, user.id, ['basic_profile']);
        await t.ctx.appRemoval.remove(application.id, user.id);
        await t.ctx.appEvents.settled();
        const [event] = await t.ctx.appEvents.recent(application.id);
        assert.equal(event!.state, 'no_callback');
        assert.equal(receiver.deliveries.length, 0);
        // Settled events leave the log after 30 days.
        t.clock.advance(30 * 24 * HOUR - 1);
        assert.equal(await t.ctx.appEvents.purgeOld(), 0);
        t.clock.advance(2);
        assert.equal(await t.ctx.appEvents.purgeOld(), 1);
        assert.deepEqual(await t.ctx.appEvents.recent(application.id), []);
      }));

    it('the SSRF guard: private and loopback callback URLs are refused (loopback only in the insecure mode)', () =>
      withApp(
        async (t) => {
          const owner = await t.user('owner');
          const application = await t.ctx.apps.create({
            name: 'Quiz',
            canvasUrl: 'https://quiz.test/',
            ownerId: owner.id,
          });
          for (const url of [
            receiver.url,
            'https://127.0.0.1/',
            'https://10.0.0.1/',
            'https://[::1]/',
            'https://169.254.169.254/latest',
            'https://localhost/',
            'ftp://example.com/',
            'https://user:pw@example.com/',
          ]) {
            await assert.rejects(
              t.ctx.appEvents.setCallbackUrl(application.id, url),
              { code: 'invalid_application' },
              url,
            );
          }
          await t.ctx.appEvents.setCallbackUrl(application.id, 'https://93.184.215.14/hook');
          assert.equal((await t.ctx.apps.getById(application.id)).callback_url, 'https://93.184.215.14/hook');
          await t.ctx.appEvents.setCallbackUrl(application.id, '');
          assert.equal((await t.ctx.apps.getById(application.id)).callback_url, null);
        },
        { CALLBACK_ALLOW_INSECURE: '0' },
      ));
  });
}
