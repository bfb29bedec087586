import type { ApiEnvelope, ApiErrorEnvelope, ApiPaging } from '@repo/contracts/platform';
import type { PublicError } from '@repo/server-kit';

export const PER_PAGE = 10;

/** Our rule for methods that return one value (an object or an integer). */
export const SINGLE_VALUE: ApiPaging = Object.freeze({ total: 1, pages: 1, current_page: 1 });

/** Errors carry no items. */
const NO_ITEMS: ApiPaging = { total: 0, pages: 0, current_page: 0 };

export function listPaging(total: number, page: number): ApiPaging {
  return { total, pages: Math.ceil(total / PER_PAGE), current_page: page };
}

export function envelope<T>(api: ApiPaging, output: T): ApiEnvelope<T> {
  return { api, output };
}

/** JSON of frozen outputs by object: cached records many calls share are written once. */
const jsonOfFrozen = new WeakMap<object, string>();
const SINGLE_VALUE_PREFIX = `{"api":${JSON.stringify(SINGLE_VALUE)},"output":`;

/**
 * An answer's JSON, as JSON.stringify writes it. A single value's output that is frozen (a record
 * kept for a cached row, see methods/present.ts) is written once and reused: such records hold
 * only strings, numbers and null, so freezing the object freezes its JSON.
 */
export function serializeAnswer(answer: unknown): string {
  const { api, output } = answer as Partial<ApiEnvelope<unknown>>;
  if (api !== SINGLE_VALUE || typeof output !== 'object' || output === null || !Object.isFrozen(output)) {
    return JSON.stringify(answer);
  }
  let json = jsonOfFrozen.get(output);
  if (json === undefined) {
    json = JSON.stringify(output);
    jsonOfFrozen.set(output, json);
  }
  return `${SINGLE_VALUE_PREFIX}${json}}`;
}

/**
 * `{"api": {0, 0, 0}, "output": {"error": {"code", "message", …details}}}`. The details an error
 * may carry are the contract's (parameter, permission, retry_after); add a new one there first.
 */
export function renderApiError(error: PublicError): ApiErrorEnvelope {
  const { parameter, permission, retry_after } = error.details ?? {};
  return envelope(NO_ITEMS, {
    error: {
      code: error.code,
      message: error.message,
      ...(typeof parameter === 'string' ? { parameter } : {}),
      ...(typeof permission === 'string' ? { permission } : {}),
      ...(typeof retry_after === 'number' ? { retry_after } : {}),
    },
  });
}
