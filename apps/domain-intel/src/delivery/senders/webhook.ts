import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { type AddressPolicy, assertAllowedUrl, guardedLookup } from '../../rdap/address-guard.ts';
import type { MessageRow } from '../outbox.ts';
import type { TargetRow } from '../targets.ts';

export interface WebhookSenderOptions extends AddressPolicy {
  timeoutMs: number;
  userAgent: string;
}

/**
 * POSTs a message to a webhook target, signed the Standard Webhooks way by the reference
 * library: `webhook-id` is the message id (the same on every retry and redelivery, so the
 * receiver can drop duplicates), `webhook-signature` an HMAC-SHA256 with the target's secret.
 * Any 2xx is success; anything else, a timeout or a refused address is an error.
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

  async send(target: TargetRow, message: MessageRow): Promise<void> {
    const url = assertAllowedUrl(target.address, this.options);
    // The signed timestamp is wall-clock time: receivers compare it with their own clocks.
    const sentAt = new Date();
    const signature = new Webhook(target.secret!).sign(message.id, sentAt, message.payload);
    const timestamp = Math.floor(sentAt.getTime() / 1000);
    const response = await request(url, {
      method: 'POST',
      dispatcher: this.#agent,
      body: message.payload,
      headers: {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent,
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw new Error(`The webhook answered HTTP ${response.statusCode}.`);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
