import type { FastifyRequest } from 'fastify';
import { planRequired } from '../accounts/plan-required.ts';
import type { PlanFeature } from '../accounts/plans.ts';
import { callerOf } from './caller-of.ts';

/** 403 `plan_required` unless the caller's plan includes `feature` (decided by the plan table only). */
export function requirePlanFeature(request: FastifyRequest, feature: PlanFeature, what: string): void {
  const plan = callerOf(request).plan;
  if (!plan.features[feature]) {
    throw planRequired(feature, plan, `${what} is part of the Enterprise plan; your plan does not include it.`);
  }
}
