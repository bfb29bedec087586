import { AppError, type AppErrorOptions, type CataloguedCode } from './errors.ts';

/** One row of a service's error catalogue. */
export interface ErrorCodeSpec {
  /** The HTTP status this code always answers with. */
  readonly status: number;
  /** What happened, for the person reading the reference. */
  readonly meaning: string;
  /** What the caller should do about it. */
  readonly action: string;
}

export interface ErrorCatalogueEntry<Code extends string = string> extends ErrorCodeSpec {
  readonly code: Code;
}

/**
 * The codes server-kit itself answers with (Fastify's client errors, unknown routes, wrong
 * methods, validation, crashes). Every service's catalogue includes them; a service may reword
 * an entry for its callers but not change its status.
 */
export const FRAMEWORK_ERRORS = {
  invalid_request: {
    status: 400,
    meaning: 'A parameter is missing, malformed, out of range, or given more than once.',
    action: 'Fix the parameter the message names; give each parameter once.',
  },
  invalid_url: {
    status: 400,
    meaning:
      'The request line could not be read: broken percent-encoding, or a character a URL may not hold (such as an unencoded ü).',
    action: 'Percent-encode the URL, e.g. ?domain=m%C3%BCnchen.de (or use the punycode form xn--mnchen-3ya.de).',
  },
  invalid_body: {
    status: 400,
    meaning: 'The request body could not be read (malformed JSON, an empty JSON body, a broken form).',
    action: 'Send a well-formed body of the content type the route takes.',
  },
  invalid_metrics_token: {
    status: 401,
    meaning: '/metrics is protected by METRICS_TOKEN and the request did not carry it.',
    action: 'Send "Authorization: Bearer <METRICS_TOKEN>" (the scraper\'s bearer_token setting in Prometheus).',
  },
  not_found: {
    status: 404,
    meaning: 'No route has this path.',
    action: 'Check the path against the API reference.',
  },
  method_not_allowed: {
    status: 405,
    meaning: 'The path exists, but not with this HTTP method.',
    action: 'Use one of the methods the Allow header lists.',
  },
  request_timeout: {
    status: 408,
    meaning: 'The request (its body included) did not arrive completely in time.',
    action: 'Send the whole body without pausing; retry.',
  },
  payload_too_large: {
    status: 413,
    meaning: 'The request body is larger than the route accepts.',
    action: 'Send a smaller body.',
  },
  unsupported_media_type: {
    status: 415,
    meaning: 'The request body has a content type this route does not take.',
    action: 'Send the content type the API reference names for the route.',
  },
  request_too_large: {
    status: 431,
    meaning: 'The request line and headers are larger than 16 KB.',
    action: 'Send long values in a POST body; send fewer or shorter headers (cookies included).',
  },
  rate_limited: {
    status: 429,
    meaning: 'Too many requests in a short time.',
    action: 'Wait the seconds Retry-After gives, then retry.',
  },
  service_unavailable: {
    status: 503,
    meaning: 'A service this call needs (the shared counters in Redis) is unreachable; nothing was done or counted.',
    action: 'Retry after the seconds Retry-After gives.',
  },
  internal_error: {
    status: 500,
    meaning: 'Our fault: something failed that should not have.',
    action: 'Retry later; quote the request id if you contact support.',
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type FrameworkErrorCode = keyof typeof FRAMEWORK_ERRORS;

export interface ErrorCatalogue<Code extends string> {
  /** Every code, the service's own first, in the order written. */
  readonly entries: readonly ErrorCatalogueEntry<Code>[];
  /** The error to throw: status and code come from the table, the message says what happened this time. */
  appError(code: Code, message: string, options?: AppErrorOptions): AppError;
  /** The table's entry of a code; an AppError subclass passes it to `super` (see zones/errors.ts). */
  entry(code: Code): ErrorCatalogueEntry<Code> & CataloguedCode<Code>;
  /** Whether a string is a code of this catalogue. */
  has(code: string): code is Code;
  /** Codes answering with this status, for the OpenAPI `code` enum of that response. */
  codesWithStatus(status: number): Code[];
}

/**
 * Makes a service's error catalogue from one typed table:
 * `const errors = defineErrorCatalogue({ plan_required: { status: 403, meaning, action } })`,
 * then `throw errors.appError('plan_required', 'Bulk checks need …', { details })`.
 * An unknown code is a type error, and the status can only come from the table.
 */
export function defineErrorCatalogue<const Table extends Record<string, ErrorCodeSpec>>(
  table: Table,
): ErrorCatalogue<(keyof Table & string) | FrameworkErrorCode> {
  type Code = (keyof Table & string) | FrameworkErrorCode;
  type Entry = ErrorCatalogueEntry<Code> & CataloguedCode<Code>;
  // The brand is a compile-time mark only: these entries are the one place it is given.
  const merged = new Map<string, Entry>();
  for (const [code, spec] of Object.entries(table)) {
    const framework = (FRAMEWORK_ERRORS as Record<string, ErrorCodeSpec>)[code];
    if (framework && framework.status !== spec.status) {
      throw new Error(`Error code ${code} answers ${framework.status} everywhere; the catalogue says ${spec.status}.`);
    }
    if (!/^[a-z][a-z0-9_]*$/.test(code)) throw new Error(`Error code "${code}" is not snake_case.`);
    merged.set(code, { code: code as Code, ...spec } as Entry);
  }
  for (const [code, spec] of Object.entries(FRAMEWORK_ERRORS)) {
    if (!merged.has(code)) merged.set(code, { code: code as Code, ...spec } as Entry);
  }
  const entries = [...merged.values()];
  const lookup = (code: string): Entry => {
    const entry = merged.get(code);
    // Only reachable through a cast or plain JavaScript: the type of `code` rules it out.
    if (!entry) throw new Error(`Error code "${code}" is not in the catalogue.`);
    return entry;
  };
  return {
    entries,
    appError: (code, message, options) => new AppError(lookup(code), message, options),
    entry: lookup,
    has: (code): code is Code => merged.has(code),
    codesWithStatus: (status) => entries.filter((entry) => entry.status === status).map((entry) => entry.code),
  };
}

/** server-kit's own catalogue: the framework codes only, for the errors it maps itself. */
export const frameworkErrors = defineErrorCatalogue({});
