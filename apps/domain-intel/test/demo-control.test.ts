import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { tempDir } from '@repo/server-kit/testing';
import type { AdvancedDay } from '../demo/demo-advance.ts';
import { controlFile, MAX_ADVANCE_DAYS, startDemoControl } from '../demo/demo-control.ts';

const day = (date: string): AdvancedDay => ({
  date,
  purged: [],
  pendingDelete: [],
  registered: 0,
  zone: { removed: 0, added: 0 },
  rdap: { checked: 0, dropped: 0 },
  watchlist: { checked: 0, transitions: 0 },
  deliveries: { matched: 0, delivered: 0, retrying: 0 },
  subscriptions: [],
});

describe('the demo control server (what npm run demo talks to)', () => {
  it('advances one request after another, refuses a bad day count, keeps inbox webhooks, and says where it is', async () => {
    const dir = tempDir('demo-control');
    const calls: string[] = [];
    let running = 0;
    const control = await startDemoControl({
      host: '127.0.0.1',
      port: 0,
      anyPortIfTaken: false,
      dataDir: dir.dir,
      now: () => Date.parse('2026-12-01T10:00:00Z'),
      aboutToDrop: () => ['leaving.com'],
      advance: async (days) => {
        running += 1;
        assert.equal(running, 1, 'never two advances at once');
        calls.push(`start ${days}`);
        await new Promise((resolve) => setImmediate(resolve));
        calls.push(`end ${days}`);
        running -= 1;
        return Array.from({ length: days }, (_, index) => day(`2026-12-0${index + 1}`));
      },
    });
    try {
      assert.deepEqual(JSON.parse(readFileSync(controlFile(dir.dir), 'utf8')).url, control.url);
      const advance = (days: unknown) =>
        fetch(`${control.url}/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ days }),
        });
      const [two, one] = await Promise.all([advance(2), advance(1)]);
      // Whichever request came first ran to its end before the other began.
      assert.equal(calls.length, 4);
      assert.deepEqual(
        [calls[1], calls[3]],
        [calls[0], calls[2]].map((call) => call?.replace('start', 'end')),
      );
      const answer = (await two.json()) as { now: string; days: AdvancedDay[]; about_to_drop: string[] };
      assert.equal(answer.now, '2026-12-01T10:00:00.000Z');
      assert.equal(answer.days.length, 2);
      assert.deepEqual(answer.about_to_drop, ['leaving.com']);
      assert.equal(one.status, 200);
      for (const bad of [0, MAX_ADVANCE_DAYS + 1, 1.5, 'many']) assert.equal((await advance(bad)).status, 400);

      const delivered = await fetch(control.inboxUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
        body: JSON.stringify({ type: 'filter.batch', data: { rows: [] } }),
      });
      assert.equal(delivered.status, 204);
      const inbox = (await (await fetch(control.inboxUrl)).json()) as { received: Array<{ id: string; type: string }> };
      assert.deepEqual(
        inbox.received.map((entry) => [entry.id, entry.type]),
        [['msg_1', 'filter.batch']],
      );
    } finally {
      await control.close();
      dir.remove();
    }
    assert.equal(existsSync(controlFile(dir.dir)), false, 'the file goes with the server');
  });

  it('takes any free port when its default one is taken, unless the port was asked for', async () => {
    const dir = tempDir('demo-control-port');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const options = {
      host: '127.0.0.1',
      port,
      dataDir: dir.dir,
      now: Date.now,
      aboutToDrop: () => [],
      advance: async () => [],
    };
    try {
      const control = await startDemoControl({ ...options, anyPortIfTaken: true });
      assert.notEqual(new URL(control.url).port, String(port));
      await control.close();
      await assert.rejects(startDemoControl({ ...options, anyPortIfTaken: false }), { code: 'EADDRINUSE' });
    } finally {
      taken.close();
      dir.remove();
    }
  });
});
