import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { linkIn } from './smtp-helpers.ts';

// Long enough that the link's line passes 76 characters, where quoted-printable breaks it with "=\r\n".
const PUBLIC_URL = 'https://domain-intelligence.example.test/a-long-public-base-path';
let counter = 0;

for (const target of databaseTargets()) {
  describe(`the outbox's mail is readable as plain text (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ target, env: { PUBLIC_URL, MAIL_TRANSPORT: 'outbox' } });
    });
    after(async () => t?.close());

    it('the confirmation link copied from the .txt beside the .eml is the whole token link', async () => {
      const email = `plain${++counter}-${Date.now()}@example.com`;
      const browser = new DashboardBrowser(t.app, {}, `203.0.113.${counter}`);
      await browser.get('/signup');
      assert.equal((await browser.post('/signup', { email })).statusCode, 202);

      const outbox = path.join(t.config.DATA_DIR, 'outbox');
      const [eml] = (await readdir(outbox)).filter((file) => file.endsWith('.eml'));
      assert.ok(eml, 'the mail is in the outbox');
      const raw = await readFile(path.join(outbox, eml), 'utf8');
      const tokenLink = linkIn(raw, '/signup/confirm').href;
      assert.ok(!raw.includes(tokenLink), 'the .eml carries the link quoted-printable, cut by a soft line break');

      const text = await readFile(path.join(outbox, eml.replace(/\.eml$/, '.txt')), 'utf8');
      const copied = /https?:\/\/\S+/.exec(text.slice(text.indexOf('\n\n')))?.[0];
      assert.equal(copied, tokenLink);
      assert.match(text, new RegExp(`^From: .+\\nTo: ${email.replace(/\./g, '\\.')}\\nSubject: Confirm your e-mail`));

      const confirm = await browser.get(
        new URL(copied).pathname.replace(/^\/a-long-public-base-path/, '') + new URL(copied).search,
      );
      assert.equal(confirm.statusCode, 200, 'the copied link opens the confirmation page');
    });
  });
}
