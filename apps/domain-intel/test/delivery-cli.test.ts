import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from '@repo/server-kit/testing';
import { callerOf } from '../src/cli/account-caller.ts';
import { loadDomainIntelConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { feedRow } from './feed-helpers.ts';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/** The operator's and scripts' path: `domain-intel filters` and `deliveries`, as a separate program. */
describe('domain-intel filters and deliveries CLI', () => {
  const temp = tempDir('delivery-cli');
  let receiver: WebhookReceiver;
  const env = { NODE_ENV: 'test', DATA_DIR: temp.dir, LOG_LEVEL: 'silent', RDAP_ALLOW_INSECURE: '1' };
  before(async () => {
    receiver = await startReceiver();
    const ctx = await createContext(loadDomainIntelConfig(env));
    await ctx.accounts.signUp({ email: 'ops@example.com', plan: 'enterprise' });
    await ctx.accounts.signUp({ email: 'small@example.com', plan: 'free' });
    await ctx.close();
  });
  after(async () => {
    await receiver.close();
    temp.remove();
  });

  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, [path.join(import.meta.dirname, '..', 'bin', 'domain-intel.js'), ...args], {
      env: { ...process.env, ...env, DATABASE_URL: '' },
    });
  const json = async (...args: string[]) => JSON.parse((await run(...args, '--json')).stdout);

  it('creates a filter with a webhook (its secret once), delivers the new rows on "deliveries run", and logs it', async () => {
    const created = await json(
      'filters',
      'create',
      '--email',
      'ops@example.com',
      '--name',
      'short com',
      '--filter',
      'tld=com&max_length=6',
      '--webhook',
      receiver.url,
    );
    assert.match(created.filter_id, /^flt_/);
    assert.match(created.target_id, /^tgt_/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.setSecret(created.secret);
    const listed = await json('filters', 'list', '--email', 'ops@example.com');
    assert.deepEqual(
      listed.map((filter: { name: string; filter: string; target_ids: string[] }) => [
        filter.name,
        filter.filter,
        filter.target_ids,
      ]),
      [['short com', 'tld=com&max_length=6', [created.target_id]]],
    );
    assert.equal(JSON.stringify(listed).includes(created.secret), false, 'the secret is never listed');

    const ctx = await createContext(loadDomainIntelConfig(env));
    const now = Date.now();
    await ctx.database.db
      .insertInto('feed_domains')
      .values([feedRow('short.com', { updated_at: now }), feedRow('much-too-long.com', { updated_at: now })])
      .execute();
    await ctx.close();

    const ran = await json('deliveries', 'run');
    assert.equal(ran.status, 'completed');
    assert.deepEqual(ran.sent, { delivered: 1, retrying: 0, dead: 0 });
    assert.deepEqual(receiver.uniqueRows(), ['short.com']);
    const again = await json('deliveries', 'run');
    assert.deepEqual(again.sent, { delivered: 0, retrying: 0, dead: 0 }, 'nothing new, nothing sent');

    const log = await json('deliveries', 'list', '--email', 'ops@example.com');
    assert.deepEqual(
      log.map((entry: { type: string; rows: number; status: string }) => [entry.type, entry.rows, entry.status]),
      [['filter.batch', 1, 'delivered']],
    );
  });

  it('refuses a bad filter or a plan without delivery targets with the catalogue code, leaving nothing behind', async () => {
    const bad = run('filters', 'create', '--email', 'ops@example.com', '--name', 'x', '--filter', 'min_da=500');
    await assert.rejects(bad, (error: { code: number; stderr: string }) => {
      assert.notEqual(error.code, 0);
      assert.match(error.stderr, /invalid_min_da/);
      assert.doesNotMatch(error.stderr, /\n\s+at /, 'a message, not a stack trace');
      return true;
    });
    const small = run(
      'filters',
      'create',
      '--email',
      'small@example.com',
      '--name',
      'x',
      '--filter',
      'tld=com',
      '--webhook',
      receiver.url,
    );
    await assert.rejects(small, /plan_required/);
    assert.deepEqual(await json('filters', 'list', '--email', 'small@example.com'), []);
    // A name already taken is found only when the filter is stored: the new webhook goes too.
    const taken = run(
      'filters',
      'create',
      '--email',
      'ops@example.com',
      '--name',
      'short com',
      '--filter',
      'tld=net',
      '--webhook',
      receiver.url,
    );
    await assert.rejects(taken, /filter_name_taken/);
    const ctx = await createContext(loadDomainIntelConfig(env));
    try {
      const targetsOf = async (email: string) => ctx.targets.list((await callerOf(ctx, email)).accountId);
      assert.deepEqual(await targetsOf('small@example.com'), [], 'no webhook left behind');
      assert.equal((await targetsOf('ops@example.com')).length, 1, 'only the first test’s webhook');
    } finally {
      await ctx.close();
    }
  });
});
