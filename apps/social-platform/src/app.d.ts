import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { type AppContext, type ContextOverrides } from './context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The platform's services (users, friends, mail, notifications, photos, apps, appAuth …).
     * Named `platform` because domain-intel already declares `ctx` on FastifyInstance with
     * its own context type, and both apps are type-checked together.
     */
    platform: AppContext;
  }
}
export interface BuildOptions extends ContextOverrides {
  /** Tests pass false for quiet output. */
  logger?: boolean;
  /** Use this context instead of creating one (the caller then owns closing it). */
  context?: AppContext;
}
/** Builds the social platform: Application API, media, web pages. No side effects beyond its database. */
export declare function buildApp(config: Config, options?: BuildOptions): Promise<FastifyInstance>;
