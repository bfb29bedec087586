import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, testTimeoutEnv } from '@repo/server-kit/testing';
import SftpClient from 'ssh2-sftp-client';
import { CSV_HEADER } from '../src/feed/feed-row.ts';
import { feedRow } from './feed-helpers.ts';
import { bearer, createTestApp, injectAs, type TestApp } from './helpers.ts';
import { sshdSkipReason, startSshd, type TestSshd } from './sshd-helpers.ts';

const MINUTE = 60_000;
const skip = sshdSkipReason();

for (const target of databaseTargets()) {
  describe(`SFTP file drop against OpenSSH's sshd (${target.name})`, { skip: skip || target.skip }, () => {
    let t: TestApp;
    let sshd: TestSshd;
    let key: string;
    let filterId: string;
    let targetId: string;

    before(async () => {
      sshd = await startSshd();
      t = await createTestApp({
        target,
        env: { RDAP_ALLOW_INSECURE: '1', DELIVERY_TIMEOUT_MS: testTimeoutEnv(3_000) },
      });
      key = await t.keyFor('enterprise');
      const created = await api('POST', '/account/targets', { kind: 'sftp', address: sshd.url });
      assert.equal(created.statusCode, 201, created.body);
      const sftp = created.json().data;
      assert.match(sftp.public_key, /^ssh-ed25519 AAAA\S+ domain-intel-tgt_/);
      assert.equal(sftp.secret, null, 'the private key never leaves the server');
      sshd.authorize(sftp.public_key);
      targetId = sftp.target_id;
      const saved = await api('POST', '/account/filters', {
        name: 'sftp drops',
        filter: 'contains=drop',
        target_ids: [targetId],
      });
      filterId = saved.json().data.filter_id;
    });
    after(async () => {
      await t?.close();
      await sshd?.close();
    });

    const api = (method: 'GET' | 'POST', url: string, payload?: object) => injectAs(t, key, method, url, payload);
    const log = async () =>
      (await api('GET', `/v1/deliveries?filter_id=${filterId}`)).json().data as Array<{
        batch_id: string;
        sequence: number;
        status: string;
        attempts: number;
        last_error: string | null;
      }>;
    const files = () => readdirSync(sshd.dropDir).sort();
    const domainsIn = (file: string) =>
      readFileSync(path.join(sshd.dropDir, file), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]);
    async function newRows(...domains: string[]) {
      t.clock.advance(MINUTE);
      const at = t.clock.now();
      await t.app.ctx.database.db
        .insertInto('feed_domains')
        .values(domains.map((domain) => feedRow(domain, { updated_at: at })))
        .execute();
    }

    it('drops each batch as a CSV file, written as .part and renamed, and pins the host key', async () => {
      await newRows('dropone.com', 'droptwo.com');
      const run = await t.app.ctx.delivery.run();
      assert.deepEqual(run.sent, { delivered: 1, retrying: 0, dead: 0 });
      const [batch] = await log();
      assert.equal(batch!.status, 'delivered');
      const name = `${filterId}-000001-${batch!.batch_id}.csv`;
      assert.deepEqual(files(), [name]);
      const lines = readFileSync(path.join(sshd.dropDir, name), 'utf8').trim().split('\n');
      assert.equal(lines[0], CSV_HEADER.join(','));
      assert.deepEqual(domainsIn(name), ['dropone.com', 'droptwo.com']);
      const row = await t.app.ctx.database.db
        .selectFrom('delivery_targets')
        .select('pinned_host_key')
        .where('id', '=', targetId)
        .executeTakeFirstOrThrow();
      assert.match(row.pinned_host_key ?? '', /^SHA256:/);
    });

    it('retries while the server is down and delivers once it is back', async () => {
      await sshd.stop();
      await newRows('dropthree.com');
      const down = await t.app.ctx.delivery.run();
      assert.deepEqual(down.sent, { delivered: 0, retrying: 1, dead: 0 });
      const failed = (await log()).find((entry) => entry.sequence === 2)!;
      assert.equal(failed.status, 'pending');
      assert.equal(failed.attempts, 1);
      assert.match(failed.last_error ?? '', /ECONNREFUSED|connect/i);

      await sshd.start();
      t.clock.advance(MINUTE); // the first retry waits 30 s
      const back = await t.app.ctx.delivery.sendDue();
      assert.deepEqual(back, { delivered: 1, retrying: 0, dead: 0 });
      assert.equal(files().length, 2);
      assert.ok(files().every((file) => file.endsWith('.csv')));
    });

    it('a crash after the upload (before the rename, or before the delivery is marked) still leaves one file per batch', async () => {
      // 1. The process dies between the upload and the rename: only a .part is on the server.
      const rename = SftpClient.prototype.posixRename;
      SftpClient.prototype.posixRename = async () => {
        throw new Error('process killed before the rename');
      };
      await newRows('dropfour.com');
      try {
        assert.deepEqual((await t.app.ctx.delivery.run()).sent, { delivered: 0, retrying: 1, dead: 0 });
      } finally {
        SftpClient.prototype.posixRename = rename;
      }
      assert.equal(files().filter((file) => file.endsWith('.part')).length, 1, 'a reader never sees half a file');
      assert.equal(files().filter((file) => file.endsWith('.csv')).length, 2);

      // 2. The retry uploads again and renames; the process then dies before marking it delivered.
      const outbox = t.app.ctx.outbox;
      const { succeeded, failed } = outbox;
      // The process is gone: neither the success nor a failure is written.
      outbox.succeeded = outbox.failed = async () => {
        throw new Error('process killed before the delivery was marked');
      };
      t.clock.advance(MINUTE);
      try {
        await assert.rejects(t.app.ctx.delivery.sendDue(), /process killed/);
      } finally {
        outbox.succeeded = succeeded;
        outbox.failed = failed;
      }
      // 3. The claim runs out and the delivery is sent again: the same file name, replaced.
      t.clock.advance(10 * MINUTE);
      assert.deepEqual(await t.app.ctx.delivery.sendDue(), { delivered: 1, retrying: 0, dead: 0 });
      const csv = files().filter((file) => file.endsWith('.csv'));
      assert.deepEqual(
        files().filter((file) => file.endsWith('.part')),
        [],
      );
      assert.equal(csv.length, 3, 'one file per batch');
      const delivered = csv.flatMap(domainsIn).sort();
      assert.deepEqual(delivered, ['dropfour.com', 'dropone.com', 'dropthree.com', 'droptwo.com']);
      assert.deepEqual(
        (await log()).map((entry) => [entry.sequence, entry.status]),
        [
          [3, 'delivered'],
          [2, 'delivered'],
          [1, 'delivered'],
        ],
      );
    });

    it('refuses a server whose host key changed', async () => {
      await sshd.replaceHostKey();
      await newRows('dropfive.com');
      assert.deepEqual((await t.app.ctx.delivery.run()).sent, { delivered: 0, retrying: 1, dead: 0 });
      const refused = (await log()).find((entry) => entry.sequence === 4)!;
      assert.match(refused.last_error ?? '', /host key changed/);
    });

    it('refuses private SFTP hosts outside the insecure mode', async () => {
      const strict = await createTestApp({ target });
      try {
        const enterprise = await strict.keyFor('enterprise');
        for (const address of ['sftp://me@10.1.2.3/drop', 'sftp://me@127.0.0.1:22/drop', 'sftp://me@[::1]/x']) {
          const refused = await strict.app.inject({
            method: 'POST',
            url: '/account/targets',
            headers: bearer(enterprise),
            payload: { kind: 'sftp', address },
          });
          assert.equal(refused.statusCode, 400, address);
          assert.equal(refused.json().error.code, 'target_not_allowed', address);
        }
      } finally {
        await strict.close();
      }
    });
  });
}
