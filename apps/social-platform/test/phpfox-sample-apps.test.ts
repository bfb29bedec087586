import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { databaseTargets, freeLoopbackPort, tempDir } from '@repo/server-kit/testing';
import { PERMISSION_NAMES } from '../src/applications/permissions.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { solidJpeg } from './upload-helpers.ts';

/**
 * phpFox's own sample apps of 2012 (fixtures/phpfox-sample-apps, byte for byte, see its SOURCES.md)
 * run unchanged against this platform: PHP's built-in web server serves each app from a copy of its
 * files plus the config.php its readme asks for, and the app trades the canvas key at token.php and
 * calls api.php by curl, as it did against phpFox.
 */
const SAMPLES = fileURLToPath(new URL('./fixtures/phpfox-sample-apps/', import.meta.url));

/** Why the test cannot run here, or undefined. CI installs php-cli and php-curl (.ci/run). */
function phpMissing(): string | undefined {
  try {
    const modules = execFileSync('php', ['-m'], { encoding: 'utf8' });
    if (!/^curl$/m.test(modules)) return "PHP's curl extension is not installed (Debian: php-curl)";
    return undefined;
  } catch {
    return 'php is not installed (Debian: php-cli and php-curl)';
  }
}

const missing = phpMissing();
if (missing) {
  console.warn(`\n!!! phpFox's sample apps are NOT run: ${missing}. Install it to run them.\n`);
}

/** PHP's built-in web server on `dir`, once it answers. */
async function servePhp(dir: string): Promise<{ url: string; stop(): void }> {
  const port = await freeLoopbackPort();
  const child: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  // Polled without a deadline of its own: the test runner's timeout bounds a server that never starts.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`php -S exited with ${child.exitCode}`);
    try {
      await fetch(`${url}readme.txt`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, stop: () => child.kill() };
}

/** A copy of one sample app with its configuration written, as its readme.txt says. */
function installSample(name: string, appUrl: string, appId: number): { dir: string; remove(): void } {
  const copy = tempDir(`phpfox-${name}`);
  const dir = path.join(copy.dir, name);
  cpSync(path.join(SAMPLES, name), dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'config.php'),
    `<?php\ndefine('APP_URL', '${appUrl}');\ndefine('APP_ID', '${appId}');\n`,
  );
  return { dir, remove: copy.remove };
}

for (const target of databaseTargets()) {
  describe(`phpFox's sample apps against the platform (${target.name})`, {
    skip: target.skip || missing,
  }, () => {
    let t: TestApp;
    let platformUrl: string;
    let appId: number;
    let alice: { id: number; user_name: string; full_name: string };
    let bob: { id: number };
    const stops: (() => void)[] = [];

    before(async () => {
      t = await createTestApp({ target, redis: target.name === 'postgres' && !!process.env.REDIS_URL });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      // phpFox's APP_URL: the site's root, with its trailing slash (the apps append token.php and api.php).
      platformUrl = `http://127.0.0.1:${port}/`;
      const developer = await t.user('developer');
      appId = (
        await t.ctx.apps.create({
          name: 'phpFox sample',
          canvasUrl: 'https://phpfox-sample.test/',
          ownerId: developer.id,
          permissions: PERMISSION_NAMES,
          published: true,
        })
      ).id;
      alice = await t.user('alice');
      bob = await t.user('bob');
      await t.ctx.friends.befriend(alice.id, bob.id);
      await t.ctx.notifications.add(alice.id, { message: 'Bob poked you', link: '/notifications' });
      await t.ctx.mail.send(bob.id, alice.id, 'Hello Alice');
      await t.ctx.grants.grant(appId, alice.id, PERMISSION_NAMES);
    });
    after(async () => {
      for (const stop of stops) stop();
      await t?.close();
    });

    const launch = async (name: string) => {
      const installed = installSample(name, platformUrl, appId);
      const php = await servePhp(installed.dir);
      stops.push(php.stop, installed.remove);
      return { php, key: await t.ctx.appAuth.issueAppKey(appId, alice.id) };
    };

    it('test: trades the key and shows every method it calls, as phpFox answered them', async () => {
      const { php, key } = await launch('test');
      const page = await (await fetch(`${php.url}index.php?key=${encodeURIComponent(key)}`)).text();
      // Read off the sample's own code: one <h3> and one print_r of the decoded answer per method.
      const section = (method: string) => {
        const start = page.indexOf(`[${method}]</h3>`);
        assert.ok(start >= 0, `the page has a section for ${method}:\n${page}`);
        return page.slice(start, page.indexOf('</pre>', start));
      };
      const getUser = section('user.getUser');
      assert.match(getUser, new RegExp(`\\[user_id\\] => ${alice.id}\\b`));
      assert.match(getUser, new RegExp(`\\[user_name\\] => ${alice.user_name}\\b`));
      assert.match(getUser, new RegExp(`\\[full_name\\] => ${alice.full_name}`));
      assert.match(getUser, /\[current_page\] => 1/);
      const friends = section('friend.getFriends');
      assert.match(friends, new RegExp(`\\[user_id\\] => ${bob.id}\\b`), 'Bob is Alice’s friend');
      assert.doesNotMatch(friends, /\[email\]/, 'friends come without e-mail');
      // The sample checks the first friend it got: Bob.
      assert.match(page, new RegExp(`Checking if Friends with User #${bob.id} \\[friend.isFriend\\]`));
      assert.match(section('friend.isFriend'), /\[is_friend\] => 1/);
      // phpFox's status method is not one of the spec's: the sample prints our catalogued refusal.
      assert.match(section('user.updateStatus'), /\[code\] => unknown_method/);
      assert.match(section('photo.getPhotos'), /\[output\] => Array\s*\(\s*\)/);
      assert.match(section('notification.getNewCount'), /\[output\] => 1\b/);
      assert.match(section('notification.get'), /\[message\] => Bob poked you/);
      assert.match(section('mail.getNewCount'), /\[output\] => 1\b/);
      assert.doesNotMatch(page, /Warning|Fatal error|Notice/, 'PHP raised nothing');
    });

    it('photo-upload: trades the key and sends the upload, which PHP 7+ sends as text (curl "@file" is gone)', async () => {
      const { php, key } = await launch('photo-upload');
      const form = await (await fetch(`${php.url}index.php?key=${encodeURIComponent(key)}`)).text();
      const token = /name="token" value="([^"]+)"/.exec(form)?.[1];
      assert.ok(token, `the form carries the token the sample got from token.php:\n${form}`);
      const upload = new FormData();
      upload.append('token', token);
      upload.append('file', new Blob([await solidJpeg(64, 48)], { type: 'image/jpeg' }), 'sunset.jpg');
      const page = await (await fetch(`${php.url}index.php`, { method: 'POST', body: upload })).text();
      // The sample posts 'photo' => '@/tmp/php…;type=image/jpeg', curl's file syntax before PHP 5.5;
      // PHP 7 removed it, so curl sends that text as the photo part, and the platform judges the part
      // by its content and refuses it in its envelope, which the sample prints.
      assert.match(page, /API Server Output/);
      assert.match(page, /\[code\] => unsupported_image_type/);
      assert.doesNotMatch(page, /Fatal error/);
    });
  });
}
