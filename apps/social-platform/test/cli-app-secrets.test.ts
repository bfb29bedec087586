import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { databaseTargets } from '@repo/server-kit/testing';
import { buildApp } from '../src/app.ts';
import { loadPlatformConfig } from '../src/config.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/social-platform.js', import.meta.url));

for (const target of databaseTargets()) {
  describe(`social-platform CLI: app secrets (${target.name})`, { skip: target.skip }, () => {
    it('apps create --require-signed-exchange --json prints app_secret once; apps rotate-secret replaces it', async () => {
      const provisioned = await target.provision();
      const env = {
        ...process.env,
        DATA_DIR: provisioned.dataDir,
        DATABASE_URL: provisioned.databaseUrl ?? '',
        POSTGRES_SCHEMA: provisioned.postgresSchema ?? 'social_platform',
        LOG_LEVEL: 'silent',
      };
      const cli = async (...args: string[]) =>
        JSON.parse((await run(process.execPath, [BIN, '--json', ...args], { env })).stdout);
      try {
        await cli(
          ...['users', 'create', '--user-name', 'dev', '--full-name', 'Dev D', '--email', 'dev@example.com'],
          ...['--password', 'password-1'],
        );
        const created = await cli(
          ...['apps', 'create', '--name', 'Quiz', '--url', 'https://quiz.test/', '--owner', 'dev', '--publish'],
          '--require-signed-exchange',
        );
        assert.equal(created.require_signed_exchange, true);
        assert.match(created.app_secret, /^sps_[A-Za-z0-9_-]{43}$/);
        const rotated = await cli('apps', 'rotate-secret', '--app', String(created.app_id));
        assert.equal(rotated.app_id, created.app_id);
        assert.match(rotated.app_secret, /^sps_/);
        assert.notEqual(rotated.app_secret, created.app_secret);
        const { key } = await cli('keys', 'issue', '--app', String(created.app_id), '--user', 'dev');

        // The server, on the same data (the same sealing key file in DATA_DIR), checks sig with the new secret.
        const config = loadPlatformConfig({ ...env, NODE_ENV: 'test', PUBLIC_URL: 'https://platform.test' });
        const app = await buildApp(config, { logger: false, postgresSchema: provisioned.postgresSchema });
        try {
          const sig = (secret: string) => createHmac('sha256', secret).update(key).digest('hex');
          const unsigned = await app.inject({ url: '/token.php', query: { key } });
          assert.equal(unsigned.json().output.error.code, 'signature_required');
          const old = await app.inject({ url: '/token.php', query: { key, sig: sig(created.app_secret) } });
          assert.equal(old.json().output.error.code, 'invalid_signature');
          const signed = await app.inject({ url: '/token.php', query: { key, sig: sig(rotated.app_secret) } });
          assert.equal(signed.statusCode, 200, signed.body);
        } finally {
          await app.close();
        }

        const refused = await run(process.execPath, [BIN, 'apps', 'rotate-secret', '--app', '999999'], { env }).catch(
          (error: { code: number; stderr: string }) => error,
        );
        assert.notEqual((refused as { code?: number }).code ?? 0, 0);
      } finally {
        await provisioned.cleanup();
      }
    });
  });
}
