import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { databaseTargets } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser } from '@repo/server-kit/testing/browser';
import { build } from 'esbuild';
import type { Browser, BrowserContext } from 'playwright-core';
import { feedRow } from '../../../apps/domain-intel/test/feed-helpers.ts';
import { PERMISSION_NAMES } from '../../../apps/social-platform/src/applications/permissions.ts';
import { solidJpeg } from '../../../apps/social-platform/test/upload-helpers.ts';
import { type RunningDomainIntel, type RunningPlatform, startDomainIntel, startPlatform } from './servers.ts';

const skip = browserSkipReason();

/** The SDK as a browser gets it from a bundler: one script, `Sdk` global, no Node built-ins. */
async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'Sdk',
    platform: 'browser',
    target: 'es2022',
    // Only reached for a file-path photo source, which browsers never pass.
    external: ['node:fs'],
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/** Both clients run in Chromium against the real apps, on each app's own origin. */
describe('the SDK in a browser', { skip }, () => {
  const target = databaseTargets()[0]!;
  let domainIntel: RunningDomainIntel;
  let platform: RunningPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let bundle: string;

  before(async () => {
    [domainIntel, platform, bundle, browser] = await Promise.all([
      startDomainIntel(target),
      startPlatform(target),
      browserBundle(),
      launchBrowser(),
    ]);
    const rows = Array.from({ length: 5 }, (_, i) => feedRow(`browser${i}.com`));
    await domainIntel.app.ctx.database.db.insertInto('feed_domains').values(rows).execute();
    // The pages' own CSP forbids inline scripts; the test injects the bundle as a bundler would ship it.
    context = await browser.newContext({ bypassCSP: true });
  });
  after(async () => {
    await browser?.close();
    await domainIntel?.close();
    await platform?.close();
  });

  it('DomainIntelClient: calls, pages, typed errors and aborts with the browser fetch', async () => {
    const page = await context.newPage();
    await page.goto(`${domainIntel.baseUrl}/signup`);
    await page.addScriptTag({ content: bundle });
    const apiKey = await domainIntel.keyFor('starter');
    const result = await page.evaluate(
      async ({ apiKey }) => {
        const { DomainIntelClient, DomainIntelError } = (window as unknown as { Sdk: typeof import('../src/index.ts') })
          .Sdk;
        const client = new DomainIntelClient({ baseUrl: location.origin, apiKey });
        const pageSizes: number[] = [];
        for await (const feedPage of client.domainPages({ limit: 2 })) pageSizes.push(feedPage.records.length);
        const quota = await client.quota();
        const refused = await new DomainIntelClient({ baseUrl: location.origin, apiKey: 'di_live_nope' })
          .quota()
          .catch((error: unknown) => (error instanceof DomainIntelError ? error.code : String(error)));
        const aborted = await client
          .quota({ signal: AbortSignal.abort() })
          .catch((error: unknown) => (error as Error).name);
        return { pageSizes, used: quota.used, refused, aborted };
      },
      { apiKey },
    );
    assert.deepEqual(result, { pageSizes: [2, 2, 1], used: 3, refused: 'invalid_key', aborted: 'AbortError' });
  });

  it('PlatformAppClient: trades the key and uploads a File from the page', async () => {
    const user = await platform.user('browser');
    const developer = await platform.user('developer');
    const app = await platform.ctx.apps.create({
      name: 'Browser app',
      canvasUrl: 'https://app.test/',
      ownerId: developer.id,
      permissions: PERMISSION_NAMES,
      published: true,
    });
    await platform.ctx.grants.grant(app.id, user.id, PERMISSION_NAMES);
    const key = await platform.ctx.appAuth.issueAppKey(app.id, user.id);
    const jpegBase64 = (await solidJpeg(320, 200)).toString('base64');
    const page = await context.newPage();
    await page.goto(`${platform.baseUrl}/login`);
    await page.addScriptTag({ content: bundle });
    const result = await page.evaluate(
      async ({ key, jpegBase64 }) => {
        const { PlatformAppClient } = (window as unknown as { Sdk: typeof import('../src/index.ts') }).Sdk;
        const client = await PlatformAppClient.fromKey({ baseUrl: location.origin, key });
        const bytes = Uint8Array.from(atob(jpegBase64), (char) => char.charCodeAt(0));
        const uploaded = await client.addPhoto(new File([bytes], 'sunset.jpg', { type: 'image/jpeg' }));
        const names: string[] = [];
        for await (const photo of client.iteratePhotos()) names.push(photo.name);
        return { userName: (await client.getUser()).user_name, has240: uploaded['240px'].length > 0, names };
      },
      { key, jpegBase64 },
    );
    assert.deepEqual(result, { userName: user.user_name, has240: true, names: ['sunset'] });
  });
});
