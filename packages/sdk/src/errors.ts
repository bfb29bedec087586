/**
 * Errors thrown by both clients. An answer of the server with an error status becomes an
 * `ApiError` whose `code` is the server's machine-readable code; a call that never got an
 * answer becomes a `TimeoutError` or `NetworkError`; a call the caller aborted rejects with
 * the signal's own reason (an `AbortError` DOMException unless the caller gave another).
 */

/** Codes the Domain Intelligence API documents at /docs/errors (others may be added). */
export type DomainIntelErrorCode =
  | 'missing_key'
  | 'invalid_key'
  | 'key_revoked'
  | 'plan_required'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'invalid_request'
  | 'not_found'
  | 'upstream_unavailable'
  | 'internal_error'
  | 'plan_limit_reached'
  | 'filter_not_found'
  | 'target_not_found'
  | 'target_not_allowed'
  | 'delivery_not_found'
  | 'watch_not_found'
  | 'tld_without_rdap'
  | (string & {});

/** Codes of the platform's Application API (see the api.php reference). */
export type PlatformErrorCode =
  | 'missing_key'
  | 'invalid_key'
  | 'key_expired'
  | 'key_already_used'
  | 'signature_required'
  | 'invalid_signature'
  | 'missing_token'
  | 'invalid_token'
  | 'token_expired'
  | 'token_revoked'
  | 'app_disabled'
  | 'unknown_method'
  | 'post_required'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'invalid_batch'
  | 'batch_too_large'
  | 'user_not_found'
  | 'permission_denied'
  | 'rate_limited'
  | 'payload_too_large'
  | 'image_too_large'
  | 'empty_file'
  | 'unsupported_image_type'
  | 'invalid_image'
  | (string & {});

export interface ApiErrorInit<Code extends string> {
  status: number;
  code: Code;
  message: string;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  retryAfterSeconds?: number | undefined;
}

/** The server answered with an error status. */
export class ApiError<Code extends string = string> extends Error {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly code: Code;
  readonly requestId: string | undefined;
  /** Extra fields the server sent with the error (e.g. `parameter`, `limit`). */
  readonly details: Record<string, unknown>;
  /** From the Retry-After header of a 429 or 503, in seconds. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit<Code>) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? {};
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

export class DomainIntelError extends ApiError<DomainIntelErrorCode> {
  override readonly name = 'DomainIntelError';
}

export class PlatformError extends ApiError<PlatformErrorCode> {
  override readonly name = 'PlatformError';
}

/** No answer within the client's timeout. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms.`);
  }
}

/** The request could not be sent or its answer not read (DNS, refused connection, reset). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'network_error';
}

/** Narrows an unknown error to an ApiError, optionally of one code: `if (hasCode(e, 'quota_exceeded'))`. */
export function hasCode<Code extends string>(error: unknown, code: Code): error is ApiError<Code> {
  return error instanceof ApiError && error.code === code;
}
