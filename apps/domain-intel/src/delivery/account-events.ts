import type { AccountEventType, EventData } from '@repo/contracts/domain-intel';

/**
 * Where the services that cause account events (accounts, quota, billing, watchlist) report
 * them; the delivery service records each for the account's webhook targets. Every payload is a
 * TypeBox schema in packages/contracts (events.ts), which the OpenAPI `webhooks` section and
 * /docs/events render: `data` is checked against it at compile time.
 */
export type AccountEventListener = <T extends AccountEventType>(
  accountId: string,
  type: T,
  data: EventData<T>,
  /** The same key twice records one event (e.g. one quota warning per account and day). */
  dedupeKey?: string,
) => void;
