import type { Plan } from './plans.ts';

/** Who is calling a keyed route: the account behind a valid key, as authentication resolved it. */
export interface Caller {
  accountId: string;
  keyId: string;
  email: string;
  plan: Plan;
}
