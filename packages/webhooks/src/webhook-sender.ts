import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { type AddressPolicy, assertAllowedUrl, guardedLookup } from './address-guard.ts';

export interface WebhookSenderOptions extends AddressPolicy {
  timeoutMs: number;
  userAgent: string;
}

/** One webhook to send: where, signed with what, under which id, and the JSON body. */
export interface OutgoingWebhook {
  url: string;
  /** The Standard Webhooks secret, `whsec_` + base64 of the key bytes. */
  secret: string;
  /** `webhook-id`: the same on every retry and redelivery, so the receiver can drop duplicates. */
  id: string;
  payload: string;
}

/** A refused delivery with the receiver's HTTP status, for delivery logs. */
export class WebhookStatusError extends Error {
  constructor(readonly statusCode: number) {
    super(`The webhook answered HTTP ${statusCode}.`);
    this.name = 'WebhookStatusError';
  }
}

/**
 * POSTs a message to a webhook, signed the Standard Webhooks way by the reference library:
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 of
 * `id.timestamp.body` with the secret). Any 2xx is success; anything else, a timeout or a
 * refused address (the SSRF guard, checked on the URL and again on every connection's resolved
 * addresses) is an error. The one sender of both services: Domain Intelligence's delivery
 * targets and the platform's app callbacks.
 */
export class WebhookSender {
  readonly #agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.#agent = new Agent({
      connect: { timeout: options.timeoutMs, lookup: guardedLookup(options) },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  async send(webhook: OutgoingWebhook): Promise<void> {
    const url = assertAllowedUrl(webhook.url, this.options);
    // The signed timestamp is wall-clock time: receivers compare it with their own clocks.
    const sentAt = new Date();
    const signature = new Webhook(webhook.secret).sign(webhook.id, sentAt, webhook.payload);
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const response = await request(url, {
      method: 'POST',
      dispatcher: this.#agent,
      body: webhook.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent,
        'webhook-id': webhook.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode > 299) throw new WebhookStatusError(response.statusCode);
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
