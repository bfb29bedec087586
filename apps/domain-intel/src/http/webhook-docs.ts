import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { WEBHOOK_EVENTS, type WebhookEventType } from '@repo/contracts/domain-intel';

/** The OpenAPI 3.1 document's `webhooks` member as @fastify/swagger types it. */
type OpenApiWebhooks = Extract<
  NonNullable<FastifyDynamicSwaggerOptions['openapi']>,
  { webhooks?: unknown }
>['webhooks'];

/** What the documents say about every webhook, whatever its type. */
const DELIVERY_NOTE =
  'Signed the Standard Webhooks way with the target secret (`whsec_…`). Any 2xx answer is success; anything else, ' +
  'or no answer within DELIVERY_TIMEOUT_MS, is retried with exponential back-off (30 s doubling, at most 3 h) for ' +
  '24 hours, then the delivery is dead-lettered. A retry or redelivery repeats the same `webhook-id` and body: ' +
  'drop ids you have seen.';

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The message id (`batch_id` of a filter batch), the same on every retry' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed' },
  {
    name: 'webhook-signature',
    description: '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the secret',
  },
];

/** The OpenAPI 3.1 `webhooks` section: one POST we send per event type, its body the contract schema. */
export function openApiWebhooks(): OpenApiWebhooks {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `webhook:${type}`,
          summary: (schema as JsonSchema).description,
          description: DELIVERY_NOTE,
          tags: ['webhooks'],
          parameters: SIGNATURE_HEADERS.map((header) => ({
            in: 'header' as const,
            name: header.name,
            required: true,
            description: header.description,
            schema: { type: 'string' },
          })),
          // A TypeBox schema is plain JSON Schema 2020-12, what OpenAPI 3.1 takes.
          requestBody: { required: true, content: { 'application/json': { schema: schema as object } } },
          responses: { '2XX': { description: 'Received; any other answer is retried' } },
        },
      },
    ]),
  );
}

interface JsonSchema {
  type?: string;
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  format?: string;
  title?: string;
}

/** A schema's type as a person reads it: `string (date-time) or null`, `"a" | "b"`, `FeedRecord[]`. */
function typeText(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === 'array') return `${schema.items?.properties ? 'object' : typeText(schema.items ?? {})}[]`;
  if (schema.type === 'null') return 'null';
  return schema.format ? `${schema.type} (${schema.format})` : (schema.type ?? 'any');
}

/** The description of a field, looking through `or null`. */
const descriptionOf = (schema: JsonSchema) =>
  schema.description ?? schema.anyOf?.find((option) => option.description)?.description ?? '';

export interface EventDoc {
  type: WebhookEventType;
  description: string;
  fields: Array<{ name: string; type: string; required: boolean; description: string }>;
  example: string;
}

/** The /docs/events page: per event its meaning, its `data` fields and an example body. */
export function eventDocs(): EventDoc[] {
  return Object.entries(WEBHOOK_EVENTS).map(([type, event]) => {
    const schema = event as JsonSchema & { examples?: unknown[] };
    const data = schema.properties!.data!;
    const required = new Set(data.required ?? []);
    return {
      type: type as WebhookEventType,
      description: schema.description ?? '',
      fields: Object.entries(data.properties ?? {}).map(([name, field]) => ({
        name,
        type: typeText(field),
        required: required.has(name),
        description: descriptionOf(field),
      })),
      example: JSON.stringify(schema.examples?.[0], null, 2),
    };
  });
}

export const webhookHeaders = SIGNATURE_HEADERS;
export const webhookDeliveryNote = DELIVERY_NOTE;
