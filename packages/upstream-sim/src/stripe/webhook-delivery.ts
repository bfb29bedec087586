import { createHmac } from 'node:crypto';
import pRetry, { AbortError } from 'p-retry';
import type { SimEvent } from './objects.ts';

export interface WebhookEndpoint {
  url: string;
  /** `whsec_…`: the key of the HMAC-SHA256 signature. */
  secret: string;
  /** The event types it receives, as Stripe's `enabled_events`; absent or `*`: every event. */
  enabledEvents?: string[];
}

/** How the simulator misbehaves the way Stripe is documented to: retries, duplicates, any order. */
export interface DeliveryBehaviour {
  /** Send every event twice (Stripe: "endpoints might occasionally receive the same event more than once"). */
  duplicate: boolean;
  /** Send the events of one operation last-first (Stripe "doesn't guarantee delivery of events in the order"). */
  reverse: boolean;
  /** Waits between attempts after a failed delivery (non-2xx, timeout, refused); Stripe's span days, tests' milliseconds. */
  retryDelaysMs: number[];
  /** Abandon one attempt after this long without an answer. */
  timeoutMs: number;
}

export interface DeliveryRecord {
  eventId: string;
  type: string;
  attempt: number;
  /** HTTP status, or 0 when no answer came (refused, timed out). */
  status: number;
}

/**
 * The `Stripe-Signature` header of a payload as Stripe documents it: `t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<payload>" under the endpoint secret>`.
 */
export function stripeSignatureHeader(payload: string, secret: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}

/** Delivers signed events to the configured endpoint, retrying failures in the background. */
export class WebhookDelivery {
  endpoint: WebhookEndpoint | undefined;
  readonly behaviour: DeliveryBehaviour = {
    duplicate: false,
    reverse: false,
    retryDelaysMs: [50, 200, 1_000],
    timeoutMs: 5_000,
  };
  readonly log: DeliveryRecord[] = [];
  readonly #inFlight = new Set<Promise<void>>();

  constructor(private readonly nowSeconds: () => number) {}

  /** Queues the events of one operation; resolves at once (as Stripe answers the API call before delivering). */
  send(events: SimEvent[]): void {
    const endpoint = this.endpoint;
    if (!endpoint) return;
    const wanted = endpoint.enabledEvents;
    const sent = wanted && !wanted.includes('*') ? events.filter((event) => wanted.includes(event.type)) : events;
    const ordered = this.behaviour.reverse ? [...sent].reverse() : sent;
    const copies = this.behaviour.duplicate ? ordered.flatMap((event) => [event, event]) : ordered;
    const run = (async () => {
      for (const event of copies) await this.deliver(event);
    })();
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }

  /** Sends one event again, as "Resend" in Stripe's dashboard does. */
  async resend(event: SimEvent): Promise<void> {
    await this.deliver(event);
  }

  /** Resolves when every queued delivery (with its retries) has finished. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  private async deliver(event: SimEvent): Promise<void> {
    const endpoint = this.endpoint;
    if (!endpoint) return;
    const payload = JSON.stringify(event, null, 2);
    const delays = this.behaviour.retryDelaysMs;
    let attempt = 0;
    await pRetry(
      async () => {
        attempt++;
        let status = 0;
        try {
          const response = await fetch(endpoint.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
              // Signed at each attempt, as Stripe does: a retry carries a fresh timestamp.
              'stripe-signature': stripeSignatureHeader(payload, endpoint.secret, this.nowSeconds()),
            },
            body: payload,
            signal: AbortSignal.timeout(this.behaviour.timeoutMs),
          });
          status = response.status;
          await response.arrayBuffer();
        } finally {
          this.log.push({ eventId: event.id, type: event.type, attempt, status });
        }
        if (status < 200 || status > 299) throw new Error(`webhook endpoint answered ${status}`);
      },
      {
        retries: delays.length,
        // One wait per retry, from the schedule (p-retry's backoff with factor 1 and the attempt's own delay).
        minTimeout: 0,
        maxTimeout: 0,
        onFailedAttempt: async ({ attemptNumber }) => {
          const wait = delays[attemptNumber - 1];
          if (wait === undefined) throw new AbortError('retries used up');
          await new Promise((resolve) => setTimeout(resolve, wait));
        },
      },
    ).catch(() => {
      // Stripe gives up after its retries and marks the endpoint failing; the log shows each attempt.
    });
  }
}
