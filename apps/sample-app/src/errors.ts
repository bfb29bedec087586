/**
 * The sample app's own refusals, with the HTTP status its error page answers with. An app
 * copied out of this repository keeps this small class instead of a framework of error codes.
 */
export class SampleAppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SampleAppError';
  }
}

/** The visitor has no live session: they must open the app from the platform (which gives a new key). */
export const sessionEnded = () =>
  new SampleAppError(401, 'session_ended', 'Your session with this app has ended or was never started.');

/** What an error page says about any error: ours, Fastify's 4xx (bad query, too large …) or a 500. */
export function describeError(error: unknown): { status: number; code: string; message: string } {
  if (error instanceof SampleAppError) return { status: error.status, code: error.code, message: error.message };
  const { statusCode, code, message, validation } = (error ?? {}) as {
    statusCode?: unknown;
    code?: unknown;
    message?: unknown;
    validation?: unknown;
  };
  if (validation) return { status: 400, code: 'invalid_request', message: String(message) };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return {
      status: statusCode,
      code: typeof code === 'string' ? code.toLowerCase() : 'invalid_request',
      message: String(message),
    };
  }
  return { status: 500, code: 'internal_error', message: 'Something went wrong on our side; try again.' };
}
