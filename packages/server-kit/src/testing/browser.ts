import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Browser tests of both services: Debian's Chromium driven by playwright-core (nothing is downloaded). */
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

/**
 * Screenshots for the docs are written only when UPDATE_SCREENSHOTS=1, so an ordinary
 * test run never rewrites tracked files.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = fileURLToPath(new URL('../../../../docs/screenshots/', import.meta.url));
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
}
