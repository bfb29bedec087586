import { type AppError, toPublicError } from '@repo/server-kit';
import { appError } from '../error-catalogue.ts';
import { hasControlCharacter } from '../http/control-characters.ts';
import { renderApiError } from './envelope.ts';

/** `method=batch`: several calls in one request, as VK's `execute` and Facebook's batch requests allow. */
export const BATCH_METHOD = 'batch';

/** At most this many calls in one batch (VK's `execute` allows 25 too). */
export const MAX_BATCH_CALLS = 25;

/** One call of a batch as read from `calls`: its method and parameters, or why it cannot run. */
export type BatchCall =
  | { method: string; params: Record<string, string>; fault?: undefined }
  | { method: string | undefined; fault: AppError };

const invalidBatch = (message: string) =>
  appError('invalid_batch', `${message} Send calls=[{"method":"user.getUser","params":{}}, …] (1 to 25 calls).`, {
    details: { parameter: 'calls' },
  });

/**
 * The calls of `calls`, a JSON array of `{"method": …, "params": {…}}`. A malformed batch (not
 * JSON, not an array, empty, more than 25 calls) is the whole request's fault and throws; a call
 * that is malformed on its own (not an object, no method, a nested batch, a parameter that is not
 * text or a whole number) carries its fault, and the other calls still run.
 */
export function readBatchCalls(calls: unknown): BatchCall[] {
  if (calls === undefined || calls === '') {
    throw appError('missing_parameter', 'Parameter calls (a JSON array of calls) is required for method=batch.', {
      details: { parameter: 'calls' },
    });
  }
  if (typeof calls !== 'string') throw invalidBatch('Parameter calls must be given once, as JSON text.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(calls);
  } catch {
    throw invalidBatch('Parameter calls is not valid JSON.');
  }
  if (!Array.isArray(parsed)) throw invalidBatch('Parameter calls must be a JSON array.');
  if (parsed.length === 0) throw invalidBatch('Parameter calls holds no call.');
  if (parsed.length > MAX_BATCH_CALLS) {
    throw appError(
      'batch_too_large',
      `A batch holds at most ${MAX_BATCH_CALLS} calls; this one holds ${parsed.length}. Split it into several batches.`,
      { details: { parameter: 'calls' } },
    );
  }
  return parsed.map(readCall);
}

function readCall(call: unknown, index: number): BatchCall {
  if (call === null || typeof call !== 'object' || Array.isArray(call)) {
    return { method: undefined, fault: invalidCall(index, 'is not an object {"method": …, "params": {…}}') };
  }
  const { method, params } = call as { method?: unknown; params?: unknown };
  if (typeof method !== 'string') return { method: undefined, fault: invalidCall(index, 'has no method (text)') };
  if (method === BATCH_METHOD) {
    return {
      method,
      fault: appError('nested_batch', `Call ${index} is itself a batch; a batch cannot hold another batch.`),
    };
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    return { method, fault: invalidCall(index, 'has params that are not an object') };
  }
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    const asText = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof asText !== 'string') {
      return {
        method,
        fault: appError('invalid_parameter', `Parameter ${name} of call ${index} must be text or a whole number.`, {
          details: { parameter: name },
        }),
      };
    }
    if (hasControlCharacter(name) || hasControlCharacter(asText)) {
      return {
        method,
        fault: appError('invalid_characters', `Parameter ${name} of call ${index} contains a control character.`, {
          details: { parameter: name },
        }),
      };
    }
    text[name] = asText;
  }
  return { method, params: text };
}

const invalidCall = (index: number, what: string) =>
  appError('invalid_batch_call', `Call ${index} of the batch ${what}.`, { details: { parameter: 'calls' } });

/** The envelope of a call that failed: what api.php would have answered for it alone. */
export const failedCallEnvelope = (error: unknown) => renderApiError(toPublicError(error));
