import type { Caller } from '../accounts/caller.ts';

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
    /** Set by the authentication hook before the handler runs. */
    caller: Caller | undefined;
  }
}
