import { WebhookSender as SharedWebhookSender, type WebhookSenderOptions } from '@repo/webhooks/webhook-sender';
import type { MessageRow } from '../outbox.ts';
import type { TargetRow } from '../targets.ts';

export type { WebhookSenderOptions };

/**
 * A webhook target's delivery through the sender both services share (`@repo/webhooks`):
 * `webhook-id` is the message id (the same on every retry and redelivery), signed with the
 * target's secret.
 */
export class WebhookSender {
  readonly #sender: SharedWebhookSender;

  constructor(options: WebhookSenderOptions) {
    this.#sender = new SharedWebhookSender(options);
  }

  send(target: TargetRow, message: MessageRow): Promise<void> {
    return this.#sender.send({ url: target.address, secret: target.secret!, id: message.id, payload: message.payload });
  }

  close(): Promise<void> {
    return this.#sender.close();
  }
}
