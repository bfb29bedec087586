import type { FastifyRequest } from 'fastify';
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
    /**
     * A read the route starts as soon as its caller is known, while the call's quota unit is taken
     * (one round trip each, side by side instead of one after the other). It must change nothing and
     * not throw, and what it reads may be used only by the handler, which runs once the call is admitted.
     */
    prefetch?: (request: FastifyRequest) => void;
  }
  interface FastifyRequest {
    /** Set by the authentication hook before the handler runs. */
    caller: Caller | undefined;
  }
}
