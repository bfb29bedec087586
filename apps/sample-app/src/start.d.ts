import type { FastifyInstance } from 'fastify';
export interface StartSampleAppOptions {
  /** 0 picks a free port. Default 3200. */
  port?: number;
  host?: string;
  /** Address of the platform whose canvas frames the app. Default http://127.0.0.1:3100. */
  platformUrl?: string;
  logger?: boolean;
  /** Any other variable of the app's configuration (see config.ts). */
  env?: NodeJS.ProcessEnv;
}
export interface RunningSampleApp {
  app: FastifyInstance;
  /** Where the app listens, e.g. http://127.0.0.1:3200/ (its canvas URL). */
  url: string;
  close(): Promise<void>;
}
/** Builds and starts the sample app; used by `npm start`, the CLI entry and the end-to-end tests. */
export declare function startSampleApp(options?: StartSampleAppOptions): Promise<RunningSampleApp>;
