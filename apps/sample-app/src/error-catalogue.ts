import { defineErrorCatalogue } from '@repo/server-kit';

/**
 * The sample app's own error codes (its pages show them); server-kit adds the framework codes.
 * Errors are raised only through `appError(code, message)`.
 */
export const errorCatalogue = defineErrorCatalogue({
  session_ended: {
    status: 401,
    meaning: 'The session with this app has ended or was never started.',
    action: 'Open the app again from the platform.',
  },
});

export const appError = errorCatalogue.appError;
