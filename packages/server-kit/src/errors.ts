/** Only an error catalogue makes these (error-catalogue.ts): the brand keeps free-form codes out. */
declare const catalogued: unique symbol;

/** A code and its status as an error catalogue defines them; the only way to make an AppError. */
export interface CataloguedCode<Code extends string = string> {
  readonly code: Code;
  readonly status: number;
  readonly [catalogued]: true;
}

export interface AppErrorOptions {
  details?: Record<string, unknown> | undefined;
  headers?: Record<string, string> | undefined;
  cause?: unknown;
}

/**
 * An error meant for the caller: its status, code and message are safe to show.
 * Anything else that escapes a handler is an internal error and is never shown.
 * Raise it through a service's catalogue (`appError(code, message)`): code and status come
 * from one table, so they are documented and never disagree.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(entry: CataloguedCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = entry.status;
    this.code = entry.code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** What a caught value says, for a log line or a recorded reason: an Error's message, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
