import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@repo/server-kit';
import { childProcessEnv, databaseTargets, freeLoopbackPort, testTimeout, waitForLine } from '@repo/server-kit/testing';
import { CALLBACK_ROUND_MS, CLAIM_MS } from '../src/callbacks/app-events.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** Work must resume at most this long after its holder died (issue 35). */
const RESUME_WITHIN_MS = 60_000;

describe('the shipped app callback claim', () => {
  it("lets a dead sender's event be sent within 60 s: the claim, then at most one round", () => {
    assert.ok(CLAIM_MS + CALLBACK_ROUND_MS <= RESUME_WITHIN_MS, `${CLAIM_MS} + ${CALLBACK_ROUND_MS} ms`);
  });
});

/** An app's callback endpoint that holds every request (`hold`) or answers 200 (`ok`). */
async function startReceiver() {
  const received: IncomingHttpHeaders[] = [];
  const held: ServerResponse[] = [];
  let mode: 'hold' | 'ok' = 'hold';
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.headers);
      if (mode === 'hold') held.push(response);
      else response.writeHead(200).end();
    });
  });
  const port = await freeLoopbackPort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/platform-events`,
    received,
    answer(next: 'hold' | 'ok') {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.close(() => resolve());
      }),
  };
}

for (const target of databaseTargets()) {
  describe(`an app callback whose sender is killed with SIGKILL (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    // The claim's end is compared with the app clock, the child used the real one: the test sets
    // this clock to the real time, then moves it on round by round instead of waiting.
    const clock = new ManualClock(Date.now());
    before(async () => {
      t = await createTestApp({ target, clock, env: { CALLBACK_ALLOW_INSECURE: '1' } });
    });
    after(async () => t?.close());

    it('the claim lapses within CLAIM_MS and the next rounds of another instance send the event, under the same webhook-id', async () => {
      const receiver = await startReceiver();
      try {
        const owner = await t.user('owner');
        const application = await t.ctx.apps.create({
          name: 'Killed sender',
          canvasUrl: 'https://killed.test/',
          ownerId: owner.id,
          permissions: ['basic_profile'],
          published: true,
        });
        await t.ctx.appEvents.setCallbackUrl(application.id, receiver.url);
        // Recorded as emit records it, but not sent by this process: the child is the sender.
        clock.set(Date.now());
        await t.ctx.database.db
          .insertInto('app_events')
          .values({
            id: 'msg_killed_sender',
            app_id: application.id,
            type: 'app.deauthorized',
            payload: JSON.stringify({ type: 'app.deauthorized', timestamp: new Date().toISOString(), data: {} }),
            created_at: clock.now(),
            state: 'pending',
            next_attempt_at: clock.now(),
            first_attempt_at: null,
            last_attempt_at: null,
            last_status: null,
            last_error: null,
            delivered_at: null,
          })
          .execute();

        const sender = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(import.meta.dirname, 'processes', 'send-app-events.ts')],
          { env: childEnv(t), stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let killedAt: number;
        try {
          await waitForLine(sender, /^sending/);
          // Bounded by a number of looks; each look's length scales with the machine's load.
          const look = testTimeout(50);
          for (let attempt = 0; attempt < 1200 && receiver.received.length === 0; attempt++) await sleep(look);
          assert.equal(receiver.received.length, 1, 'the sender was sending when it was killed');
          killedAt = Date.now();
          sender.kill('SIGKILL');
          await once(sender, 'exit');
        } finally {
          sender.kill('SIGKILL');
        }

        const [claimed] = await t.ctx.appEvents.recent(application.id);
        assert.equal(claimed!.state, 'pending');
        assert.ok(claimed!.next_attempt_at <= killedAt + CLAIM_MS, 'the claim lapses within CLAIM_MS of the kill');

        // Another instance's rounds, one per CALLBACK_ROUND_MS from the kill: counted, not timed.
        receiver.answer('ok');
        clock.set(killedAt);
        let rounds = 0;
        let delivered = 0;
        while (delivered === 0 && rounds < 10) {
          if (rounds > 0) clock.advance(CALLBACK_ROUND_MS);
          rounds++;
          delivered = (await t.ctx.appEvents.deliverDue()).delivered;
        }
        assert.equal(delivered, 1, 'another instance sent the event');
        assert.ok(
          (rounds - 1) * CALLBACK_ROUND_MS <= CLAIM_MS + CALLBACK_ROUND_MS,
          `sent in round ${rounds}: ${(rounds - 1) * CALLBACK_ROUND_MS} ms after the kill`,
        );
        assert.ok((rounds - 1) * CALLBACK_ROUND_MS <= RESUME_WITHIN_MS);
        assert.equal(receiver.received.length, 2, 'the event in flight was sent again');
        assert.equal(
          receiver.received[1]!['webhook-id'],
          receiver.received[0]!['webhook-id'],
          'under the same webhook-id',
        );
        const [sent] = await t.ctx.appEvents.recent(application.id);
        assert.equal(sent!.state, 'delivered');
      } finally {
        await receiver.close();
      }
    });
  });
}

/** The environment a child process needs to open this test's database and DATA_DIR. */
function childEnv(t: TestApp): NodeJS.ProcessEnv {
  const database = {
    dataDir: t.config.DATA_DIR,
    databaseUrl: t.config.DATABASE_URL,
    postgresSchema: t.ctx.database.postgresSchema,
  };
  return childProcessEnv(database);
}
