import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseTargets, testTimeout } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { runJob } from '../src/jobs/pipeline.ts';
import { bearer, createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

// The engine, not the database, decides priority: the embedded default is enough.
const target = databaseTargets()[0]!;
const JOB_NAMES = Array.from({ length: 12 }, (_, i) => `slow-lane-${i}.com`);

describe('a bulk job beside interactive checks', { skip: target.skip }, () => {
  let sim: UpstreamSim;
  let t: TestApp;
  before(async () => {
    sim = await startUpstreamSim();
    // 5 lookups a second for the simulator's host, of which background traffic may take 1.
    t = await createTestApp({
      target,
      env: simRdapEnv(sim, { RDAP_HOST_RATE_PER_SECOND: '5', RDAP_INTERACTIVE_SHARE: '0.8' }),
    });
  });
  after(async () => {
    await t?.close();
    await sim?.close();
  });

  it('takes only the background share of the registry, so /v1/check calls are answered while it runs', async () => {
    const key = await t.keyFor('enterprise');
    const job = (
      await t.app.inject({
        method: 'POST',
        url: '/account/bulk-checks',
        headers: bearer(key),
        payload: { domains: JOB_NAMES },
      })
    ).json().data;
    const run = runJob(t.app.ctx, 'bulk-checks');
    const progress = async () =>
      (await t.app.inject({ url: `/account/bulk-checks/${job.id}`, headers: bearer(key) })).json().data;
    for (let attempt = 0; attempt < 2400 && (await progress()).status !== 'running'; attempt++)
      await sleep(testTimeout(25));

    const checked = await t.app.inject({
      url: '/v1/check?domains=lane-a.com,lane-b.com,lane-c.com,lane-d.com',
      headers: bearer(key),
    });
    assert.equal(checked.statusCode, 200);
    assert.deepEqual(
      checked.json().data.map((row: { status: string }) => row.status),
      ['available', 'available', 'available', 'available'],
      'every interactive lookup answered within the call, none left unknown behind the job',
    );
    const during = await progress();
    assert.equal(during.status, 'running', 'the job was still asking its names');
    assert.ok(during.done < JOB_NAMES.length);

    assert.equal((await run).status, 'completed');
    const done = await progress();
    assert.deepEqual({ status: done.status, done: done.done }, { status: 'done', done: JOB_NAMES.length });
  });
});
