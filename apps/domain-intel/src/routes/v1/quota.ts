import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { Envelope, keyedErrorResponses } from '../../http/schemas.ts';

const QuotaRecord = Type.Object({
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

export default async function quotaRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/quota',
    {
      config: { quota: 'free' },
      schema: {
        summary: "The caller's quota today",
        description: 'Does not count against the quota.',
        tags: ['account'],
        response: { 200: Envelope(QuotaRecord), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const status = await app.ctx.quota.status(caller);
      const { subscription } = await app.ctx.accounts.summary(caller.email);
      return ok(request, {
        plan: caller.plan.id,
        limit: status.limit,
        used: status.used,
        remaining: status.remaining,
        resets_at: new Date(status.resetsAt).toISOString(),
        period_end: subscription.periodEnd === null ? null : new Date(subscription.periodEnd).toISOString(),
        cancelled: subscription.status !== 'active',
      });
    },
  );
}
