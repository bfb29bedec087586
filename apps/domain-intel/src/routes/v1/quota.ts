import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, Quota } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

const quotaRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/quota',
    {
      config: { quota: 'free' },
      schema: {
        summary: "The caller's quota today",
        description: 'Does not count against the quota.',
        tags: ['account'],
        response: { 200: Envelope(Quota), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const status = await app.ctx.quota.status(caller);
      const { subscription } = await app.ctx.accounts.summary(caller.email);
      const quota: Quota = {
        plan: caller.plan.id,
        limit: status.limit,
        used: status.used,
        remaining: status.remaining,
        resets_at: new Date(status.resetsAt).toISOString(),
        period_end: subscription.periodEnd === null ? null : new Date(subscription.periodEnd).toISOString(),
        cancelled: subscription.status !== 'active',
      };
      return ok(request, quota);
    },
  );
};

export default quotaRoute;
