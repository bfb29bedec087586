import type { FastifyRequest } from 'fastify';
import type { PlanFeature } from '../accounts/plans.ts';
import { appError } from '../error-catalogue.ts';

/** 403 `plan_required` unless the caller's plan includes `feature` (decided by the plan table only). */
export function requirePlanFeature(request: FastifyRequest, feature: PlanFeature, what: string): void {
  if (!request.caller?.plan.features[feature]) {
    throw appError('plan_required', `${what} is part of the Enterprise plan; your plan does not include it.`, {
      details: { feature, plan: request.caller?.plan.id ?? null },
    });
  }
}
