import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { BlockedAddressError } from '../src/address-guard.ts';
import { retryDelay } from '../src/retry-schedule.ts';
import { WebhookSender, WebhookStatusError } from '../src/webhook-sender.ts';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('the shared webhook sender', () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(status).end();
    });
  });
  let url: string;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('POSTs the body signed the Standard Webhooks way under the given id', async () => {
    const sender = new WebhookSender({ allowInsecure: true, timeoutMs: 10_000, userAgent: 'test/1' });
    try {
      const payload = JSON.stringify({ type: 'app.deauthorized', timestamp: '2026-03-10T12:00:00.000Z', data: {} });
      await sender.send({ url, secret: SECRET, id: 'msg_1', payload });
      const [delivery] = received;
      assert.equal(delivery?.body, payload);
      assert.equal(delivery?.headers['webhook-id'], 'msg_1');
      assert.equal(delivery?.headers['user-agent'], 'test/1');
      assert.deepEqual(
        new Webhook(SECRET).verify(payload, delivery!.headers as Record<string, string>),
        JSON.parse(payload),
      );
      status = 503;
      await assert.rejects(sender.send({ url, secret: SECRET, id: 'msg_2', payload }), (error: unknown) => {
        assert.ok(error instanceof WebhookStatusError);
        assert.equal(error.statusCode, 503);
        assert.equal(error.message, 'The webhook answered HTTP 503.');
        return true;
      });
    } finally {
      status = 200;
      await sender.close();
    }
  });

  it('refuses loopback, private and metadata addresses outside the insecure mode, before connecting', async () => {
    const sender = new WebhookSender({ allowInsecure: false, timeoutMs: 10_000, userAgent: 'test/1' });
    const before = received.length;
    try {
      for (const target of [
        url,
        'https://127.0.0.1/',
        'https://10.1.2.3/',
        'https://169.254.169.254/',
        'https://[::1]/',
      ]) {
        await assert.rejects(
          sender.send({ url: target, secret: SECRET, id: 'msg_x', payload: '{}' }),
          BlockedAddressError,
          target,
        );
      }
      assert.equal(received.length, before);
    } finally {
      await sender.close();
    }
  });

  it('backs off 30 s doubling, at most 3 h', () => {
    assert.deepEqual([1, 2, 3, 4, 9, 20].map(retryDelay), [30_000, 60_000, 120_000, 240_000, 7_680_000, 10_800_000]);
  });
});
