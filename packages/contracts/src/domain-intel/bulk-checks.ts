import { type Static, Type } from 'typebox';
import { Literals, Nullable } from '../schema-helpers.ts';

/** Where a bulk availability job is: waiting for a worker, being worked, or finished one of three ways. */
export const BULK_CHECK_STATUSES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
export type BulkCheckStatus = (typeof BULK_CHECK_STATUSES)[number];

/** Most names one bulk job takes (JSON list or text upload). */
export const BULK_CHECK_MAX_DOMAINS = 10_000;

const time = (description: string) => Type.String({ format: 'date-time', description });

/** A bulk availability job as /account/bulk-checks shows it; its items are downloaded from …/results. */
export const BulkCheck = Type.Object({
  id: Type.String({ description: 'bulk_…' }),
  status: Literals(BULK_CHECK_STATUSES, {
    description: 'queued, running, done, cancelled (by you; decided items stay) or failed (error says why)',
  }),
  total: Type.Integer({ description: 'Distinct entries after normalisation, malformed ones included: one item each' }),
  done: Type.Integer({ description: 'Items decided so far (malformed entries are decided at once)' }),
  invalid: Type.Integer({ description: 'Malformed entries (their items say why); they use no quota' }),
  duplicates: Type.Integer({ description: 'Entries merged into an earlier one with the same normalised name' }),
  created_at: time('When the job was accepted'),
  started_at: Nullable(time('When a worker began it')),
  finished_at: Nullable(time('When it became done, cancelled or failed')),
  error: Type.Optional(Type.String({ description: 'Why it failed' })),
});
export type BulkCheck = Static<typeof BulkCheck>;
