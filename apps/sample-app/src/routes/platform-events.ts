import type { FastifyInstance } from 'fastify';
import { type PlatformEvent, signDeletionReport, verifyWebhook } from '../signatures.ts';

/** Events kept for the log (newest last); the app keeps nothing else about users. */
const EVENTS_KEPT = 100;

/**
 * The app's callback URL, `/platform/events` (set it on the app's Secret and callbacks page):
 * each POST is checked the Standard Webhooks way with the key derived from APP_SECRET.
 * `app.deauthorized` ends the user's sessions at once; `user.data_deletion_requested` does the
 * same (sessions are all this app keeps about a user) and reports `completed` to the status URL,
 * signed. Duplicates (the same webhook-id, a retry or a redelivery) are answered and not redone.
 */
export async function platformEventRoutes(app: FastifyInstance): Promise<void> {
  const { config, sessions, platformOrigin, now, events } = app.sample;
  const secret = config.APP_SECRET;
  if (!secret) return;
  // The signature covers the body byte for byte: it is read as text, verified, and only then parsed.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.post('/platform/events', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const event = verifyWebhook(body, request.headers, secret, now());
    if (!event) return reply.code(401).send({ error: 'invalid_signature' });
    if (events.some((seen) => seen.id === event.id)) return reply.code(204).send();
    events.push(event);
    if (events.length > EVENTS_KEPT) events.shift();
    request.log.info({ type: event.type, webhookId: event.id }, 'platform event');
    await handle(event);
    return reply.code(204).send();
  });

  async function handle(event: PlatformEvent) {
    const userId = String(event.data.user_id ?? '');
    if (event.type === 'app.deauthorized') sessions.deleteForUser(userId);
    if (event.type === 'user.data_deletion_requested') {
      sessions.deleteForUser(userId);
      const statusUrl = String(event.data.status_url ?? '');
      // Reports go to the platform only, never to an address an event could name elsewhere.
      if (!URL.canParse(statusUrl) || new URL(statusUrl).origin !== platformOrigin) return;
      const report = signDeletionReport(secret!, String(event.data.request_id), 'completed', now());
      const answer = await fetch(statusUrl, {
        method: 'POST',
        body: new URLSearchParams(report),
        signal: AbortSignal.timeout(config.PLATFORM_TIMEOUT_MS),
      }).catch((error: unknown) => error);
      if (!(answer instanceof Response) || !answer.ok) {
        app.log.warn({ statusUrl }, 'the data deletion report was not taken; the platform shows it as requested');
      }
    }
  }
}
