import type { FastifyInstance } from 'fastify';
import { apiHeaders } from '../http/api-headers.ts';
import { ok } from '../http/envelope.ts';

/** Stripe events are a few kilobytes; anything larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * POST /billing/webhook, where Stripe delivers events (outside /v1, which is GET-only). The body
 * is kept as the exact bytes received, since the signature covers them; the event is verified,
 * stored, applied, and only then answered 2xx. A failure to apply answers 5xx so Stripe
 * delivers the (already stored) event again.
 */
export async function billingWebhookRoute(app: FastifyInstance): Promise<void> {
  const { billing } = app.ctx;
  if (!billing) return;
  await app.register(apiHeaders);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  // The body is the bytes as received (the parser above), which the signature covers.
  app.post<{ Body: Buffer }>(
    '/billing/webhook',
    { schema: { hide: true }, config: { auth: 'none' } },
    async (request) => {
      const raw = request.body;
      const event = billing.verify(raw, request.headers['stripe-signature']);
      const result = await billing.receive(event, raw);
      request.log.info({ event: event.id, type: event.type, ...result }, 'stripe event');
      return ok(request, { received: true, event_id: event.id, ...result });
    },
  );
}
