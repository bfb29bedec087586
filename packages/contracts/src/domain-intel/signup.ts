import { type Static, Type } from 'typebox';

/** POST /signup's JSON answer: the new Free account and its key, shown this once. */
export const SignupResult = Type.Object({
  account_id: Type.String(),
  email: Type.String(),
  plan: Type.String(),
  key: Type.String({ description: 'Shown only in this response' }),
  key_id: Type.String(),
});
export type SignupResult = Static<typeof SignupResult>;

/**
 * POST /signup's JSON answer when sign-ups confirm the address (account mail configured): a mail
 * went to the address; the account is created, and its key shown, by the link in it. The same
 * answer whether or not the address already has an account (its owner is told so by mail).
 */
export const SignupPending = Type.Object({
  email: Type.String(),
  status: Type.Literal('confirmation_sent'),
  expires_at: Type.String({ format: 'date-time', description: 'When the link in the mail stops working (24 h)' }),
});
export type SignupPending = Static<typeof SignupPending>;

/** POST /signup/confirm's JSON body: the token of the link in the confirmation mail. */
export const SignupConfirmation = Type.Object({ token: Type.String({ maxLength: 100 }) });
export type SignupConfirmation = Static<typeof SignupConfirmation>;
