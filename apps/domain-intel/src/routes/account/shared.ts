import { Type } from '@fastify/type-provider-typebox';
import { errorResponses, keyedErrorResponses } from '../../http/schemas.ts';

/** The error answers of every management route. */
export const managementErrors = { ...keyedErrorResponses, ...errorResponses(404, 409) };

/** Management calls never take a unit of the daily quota. */
export const notCounted = { quota: 'free' as const };

export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
