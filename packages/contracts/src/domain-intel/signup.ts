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
