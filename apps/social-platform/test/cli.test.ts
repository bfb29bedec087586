import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { databaseTargets } from '@repo/server-kit/testing';
import { buildApp } from '../src/app.ts';
import { loadPlatformConfig } from '../src/config.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/social-platform.js', import.meta.url));

// The CLI only wires commands to the services (tested on both engines elsewhere); each
// command is a process start, so this runs on SQLite only to keep the suite quick.
for (const target of databaseTargets().filter((candidate) => candidate.name === 'sqlite')) {
  describe(`social-platform CLI (${target.name})`, { skip: target.skip }, () => {
    it('creates users, friends, an app and a key that token.php accepts; reports bad input', async () => {
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
        const ann = await cli(
          'users',
          'create',
          '--user-name',
          'ann',
          '--full-name',
          'Ann A',
          '--email',
          'ann@example.com',
          '--password',
          'password-1',
          '--country',
          'se',
        );
        const ben = await cli(
          'users',
          'create',
          '--user-name',
          'ben',
          '--full-name',
          'Ben B',
          '--email',
          'ben@example.com',
          '--password',
          'password-2',
        );
        assert.deepEqual(await cli('friends', 'add', '--user', 'ann', '--friend', String(ben.user_id)), {
          user_id: ann.user_id,
          friend_user_id: ben.user_id,
        });
        const { app_id } = await cli(
          'apps',
          'create',
          '--name',
          'Quiz',
          '--url',
          'https://quiz.example/',
          '--owner',
          'ann',
          '--permissions',
          'basic_profile,friends',
          '--publish',
        );
        const { key } = await cli('keys', 'issue', '--app', String(app_id), '--user', 'ben');
        // Two devices, two keys: --count prints {"keys": [...]}.
        const { keys } = await cli('keys', 'issue', '--app', String(app_id), '--user', 'ben', '--count', '2');
        assert.equal(keys.length, 2);
        assert.notEqual(keys[0], keys[1]);

        const duplicate = await run(
          process.execPath,
          [
            BIN,
            'users',
            'create',
            '--user-name',
            'ann',
            '--full-name',
            'X',
            '--email',
            'x@example.com',
            '--password',
            'password-3',
          ],
          { env },
        ).catch((error) => error);
        assert.equal(duplicate.code, 1);
        assert.match(duplicate.stderr, /user_name_taken/);

        const app = await buildApp(loadPlatformConfig(env), {
          logger: false,
          postgresSchema: provisioned.postgresSchema,
        });
        try {
          const exchanged = await app.inject({ url: '/token.php', query: { key } });
          assert.equal(exchanged.statusCode, 200);
          const friends = await app.inject({
            url: '/api.php',
            query: { token: exchanged.json().token, method: 'friend.getFriends' },
          });
          assert.deepEqual(
            friends.json().output.map((friend: { user_name: string }) => friend.user_name),
            ['ann'],
          );
          for (const other of keys) {
            assert.equal((await app.inject({ url: '/token.php', query: { key: other } })).statusCode, 200);
          }
          // keys issue recorded ben's consent to what the app asks, and nothing more.
          const mail = await app.inject({
            url: '/api.php',
            query: { token: exchanged.json().token, method: 'mail.getNewCount' },
          });
          assert.equal(mail.json().output.error.code, 'permission_denied');
        } finally {
          await app.close();
        }
      } finally {
        await provisioned.cleanup();
      }
    });
  });
}
