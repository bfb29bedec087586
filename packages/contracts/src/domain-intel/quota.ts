import { type Static, Type } from 'typebox';

/** /v1/quota: the caller's plan and calls today. */
export const Quota = Type.Object({
  plan: Type.String({ description: 'free, starter or enterprise' }),
  limit: Type.Union([Type.Integer(), Type.Null()], { description: 'Calls per UTC day; null is unlimited' }),
  used: Type.Integer({ description: 'Calls counted today' }),
  remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'null is unlimited' }),
  resets_at: Type.String({ format: 'date-time', description: 'Next 00:00 UTC' }),
  period_end: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'End of the billing period; null on Free, which never expires',
  }),
  cancelled: Type.Boolean({ description: 'The plan is cancelled and ends at period_end' }),
});
export type Quota = Static<typeof Quota>;
