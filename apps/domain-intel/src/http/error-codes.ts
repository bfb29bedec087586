/**
 * Every error code the API answers with: the catalogue behind /docs/errors, the link in each
 * error body. Keep it in step with the code (a test checks that thrown codes are listed).
 */
export interface ErrorCodeEntry {
  code: string;
  status: number;
  description: string;
}

export const ERROR_CODES: ErrorCodeEntry[] = [
  { code: 'missing_key', status: 401, description: 'No Authorization header. Send "Authorization: Bearer di_live_…".' },
  {
    code: 'invalid_key',
    status: 401,
    description: 'The Authorization header is not exactly "Bearer <key>", or the key is unknown.',
  },
  {
    code: 'key_revoked',
    status: 401,
    description: 'The key was revoked or rotated, or its cancelled subscription reached the end of its billing period.',
  },
  { code: 'plan_required', status: 403, description: "The feature is not part of the caller's plan." },
  {
    code: 'quota_exceeded',
    status: 429,
    description: 'The daily call cap of the plan is used up. Retry-After gives the seconds to 00:00 UTC.',
  },
  {
    code: 'rate_limited',
    status: 429,
    description: 'Too many requests from this address (sign-up, sample). See Retry-After.',
  },
  { code: 'invalid_request', status: 400, description: 'A parameter is missing, malformed or out of range.' },
  { code: 'invalid_email', status: 400, description: 'The e-mail address is missing or not valid.' },
  { code: 'invalid_plan', status: 400, description: 'The plan name is unknown.' },
  { code: 'email_taken', status: 409, description: 'An account with this e-mail address already exists.' },
  { code: 'account_not_found', status: 404, description: 'No account with this e-mail address.' },
  { code: 'key_not_found', status: 404, description: 'No key with this id on the account.' },
  { code: 'key_already_revoked', status: 409, description: 'The key is already revoked.' },
  { code: 'nothing_to_cancel', status: 409, description: 'The Free plan has no subscription to cancel.' },
  { code: 'already_cancelled', status: 409, description: 'The subscription is already cancelled.' },
  {
    code: 'invalid_signature',
    status: 400,
    description:
      'POST /billing/webhook: the Stripe-Signature header is missing, malformed, older than the tolerance, or does not match the body.',
  },
  {
    code: 'already_subscribed',
    status: 409,
    description: 'The account already has a Stripe subscription; change it in the billing portal.',
  },
  {
    code: 'no_billing_account',
    status: 409,
    description: 'The account has not bought a plan through Stripe yet, so there is no billing portal.',
  },
  { code: 'checkout_not_found', status: 404, description: 'No Stripe Checkout session of this account with that id.' },
  { code: 'not_found', status: 404, description: 'No such route.' },
  {
    code: 'unsupported_media_type',
    status: 415,
    description: 'The request body has a content type this route does not take.',
  },
  { code: 'payload_too_large', status: 413, description: 'The request body is too large.' },
  { code: 'invalid_body', status: 400, description: 'The request body is not valid (for example malformed JSON).' },
  { code: 'internal_error', status: 500, description: 'Our fault. The request id lets us find what happened.' },
];
