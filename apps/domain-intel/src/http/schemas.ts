import { ErrorEnvelopeRef } from '@repo/contracts/domain-intel';

/** The error responses a keyed /v1 route can give besides its own. */
export const keyedErrorResponses = {
  400: ErrorEnvelopeRef,
  401: ErrorEnvelopeRef,
  403: ErrorEnvelopeRef,
  429: ErrorEnvelopeRef,
  503: ErrorEnvelopeRef,
};
