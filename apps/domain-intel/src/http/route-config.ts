import type { Plan } from '../accounts/plans.ts';

/** Who is calling a keyed route, set by the authentication hook before the handler runs. */
export interface Caller {
  accountId: string;
  keyId: string;
  email: string;
  plan: Plan;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `key` (default for /v1 routes): a bearer API key is required.
     * `none`: no key (health, docs, sign-up, /v1/sample).
     */
    auth?: 'key' | 'none';
    /** `count` (default for keyed routes): one call against the daily quota. `free`: not counted. */
    quota?: 'count' | 'free';
  }
  interface FastifyRequest {
    caller: Caller | undefined;
  }
}
