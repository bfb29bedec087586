import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@repo/server-kit/testing';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startSampleApp } from '../../../sample-app/src/index.ts';
import { buildApp } from '../../src/app.ts';
import { loadPlatformConfig } from '../../src/config.ts';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or false. Printed loudly and shown as the skip reason. */
export function browserSkipReason(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `${CHROMIUM} is not installed (apt-get install -y chromium): the browser end-to-end tests are SKIPPED`;
  process.stderr.write(`\n!!! ${reason}\n\n`);
  return reason;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A port the system reports free right now (the platform must know its own URL before it listens). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface Stack {
  platform: FastifyInstance;
  platformUrl: string;
  sampleAppUrl: string;
  close(): Promise<void>;
}

/** The platform (SQLite in a temp dir, PUBLIC_URL = where it listens) and the sample app pointed at it. */
export async function startStack(): Promise<Stack> {
  const data = tempDir('e2e-platform');
  const port = await freePort();
  const platformUrl = `http://127.0.0.1:${port}`;
  const platform = await buildApp(
    loadPlatformConfig({ NODE_ENV: 'test', DATA_DIR: data.dir, LOG_LEVEL: 'silent', PUBLIC_URL: platformUrl }),
    { logger: false },
  );
  await platform.listen({ host: '127.0.0.1', port });
  const sample = await startSampleApp({ port: 0, platformUrl, logger: false, env: { LOG_LEVEL: 'silent' } });
  return {
    platform,
    platformUrl,
    sampleAppUrl: sample.url,
    async close() {
      await sample.close();
      await platform.close();
      data.remove();
    },
  };
}

/**
 * Screenshots for the README are written only when UPDATE_SCREENSHOTS=1, so an ordinary
 * test run never rewrites tracked files.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
}
