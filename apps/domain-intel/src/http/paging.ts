import { Type } from '@fastify/type-provider-typebox';
import { appError } from '../error-catalogue.ts';

/** The `limit` and `offset` query parameters of a paged account list (deliveries, watchlist). */
export const PagingQuery = (maxLimit: number, maxOffset: number, defaultLimit: number) => ({
  limit: Type.Optional(Type.String({ description: `1-${maxLimit} (default ${defaultLimit})` })),
  offset: Type.Optional(Type.String({ description: `0-${maxOffset} (default 0)` })),
});

function integer(raw: string | undefined, name: 'limit' | 'offset', min: number, max: number, fallback: number) {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw appError(`invalid_${name}`, `${name} must be a whole number from ${min} to ${max}; got "${raw}".`, {
      details: { parameter: name },
    });
  }
  return Number(raw);
}

/** Validates `limit` and `offset` (400 invalid_limit / invalid_offset, never clamped). */
export function parsePaging(
  query: { limit?: string; offset?: string },
  bounds: { maxLimit: number; maxOffset: number; defaultLimit: number },
): { limit: number; offset: number } {
  return {
    limit: integer(query.limit, 'limit', 1, bounds.maxLimit, bounds.defaultLimit),
    offset: integer(query.offset, 'offset', 0, bounds.maxOffset, 0),
  };
}
