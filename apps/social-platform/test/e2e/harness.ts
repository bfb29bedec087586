import { freeLoopbackPort, tempDir } from '@repo/server-kit/testing';

export { browserSkipReason, CHROMIUM, launchBrowser, screenshot } from '@repo/server-kit/testing/browser';

import type { FastifyInstance } from 'fastify';
import { startSampleApp } from '../../../sample-app/src/index.ts';
import { buildApp } from '../../src/app.ts';
import { loadPlatformConfig } from '../../src/config.ts';

export interface Stack {
  platform: FastifyInstance;
  platformUrl: string;
  sampleAppUrl: string;
  close(): Promise<void>;
}

/** The platform (SQLite in a temp dir, PUBLIC_URL = where it listens) and the sample app pointed at it. */
export async function startStack(): Promise<Stack> {
  const data = tempDir('e2e-platform');
  const port = await freeLoopbackPort();
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
