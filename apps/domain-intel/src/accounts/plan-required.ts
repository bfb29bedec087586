import { appError } from '../error-catalogue.ts';
import type { Plan, PlanFeature } from './plans.ts';

/** A feature as errors name it in details.feature: snake_case like every field of the API (bulkExport → bulk_export). */
export const featureName = (feature: PlanFeature): string =>
  feature.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The 403 `plan_required` refusing `feature` to a caller on `plan` (the call uses no quota). */
export function planRequired(feature: PlanFeature, plan: Pick<Plan, 'id'>, message: string) {
  return appError('plan_required', message, { details: { feature: featureName(feature), plan: plan.id } });
}
