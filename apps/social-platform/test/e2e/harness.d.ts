import type { FastifyInstance } from 'fastify';
import { type Browser, type Page } from 'playwright-core';
export declare const CHROMIUM = '/usr/bin/chromium';
/** Why the browser tests cannot run here, or false. Printed loudly and shown as the skip reason. */
export declare function browserSkipReason(): string | false;
export declare function launchBrowser(): Promise<Browser>;
export interface Stack {
  platform: FastifyInstance;
  platformUrl: string;
  sampleAppUrl: string;
  close(): Promise<void>;
}
/** The platform (SQLite in a temp dir, PUBLIC_URL = where it listens) and the sample app pointed at it. */
export declare function startStack(): Promise<Stack>;
/**
 * Screenshots for the README are written only when UPDATE_SCREENSHOTS=1, so an ordinary
 * test run never rewrites tracked files.
 */
export declare function screenshot(
  page: Page,
  name: string,
  options?: {
    fullPage?: boolean;
  },
): Promise<void>;
