import type { FastifyInstance } from 'fastify';
import type { SampleAppConfig } from './config.ts';
import { PlatformClient } from './platform-client.ts';
import { SessionStore } from './sessions.ts';
export interface SampleAppContext {
  config: SampleAppConfig;
  platform: PlatformClient;
  sessions: SessionStore;
  /** The platform's origin: the only one allowed to frame the app and the source of its images. */
  platformOrigin: string;
}
declare module 'fastify' {
  interface FastifyInstance {
    sample: SampleAppContext;
  }
}
export interface BuildSampleAppOptions {
  /** Tests pass false for quiet output. */
  logger?: boolean;
  /** Tests move time forward to expire sessions. */
  now?: () => number;
}
/** Builds the sample app: no side effects beyond the server object it returns. */
export declare function buildSampleApp(
  config: SampleAppConfig,
  options?: BuildSampleAppOptions,
): Promise<FastifyInstance>;
