import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets } from '@repo/server-kit/testing';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';
import { runJob } from '../src/jobs/pipeline.ts';
import { DashboardBrowser } from './dashboard-session.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { simRdapEnv } from './rdap-helpers.ts';

for (const target of databaseTargets()) {
  describe(`dashboard: bulk checks (${target.name})`, { skip: target.skip }, () => {
    let sim: UpstreamSim;
    let t: TestApp;
    before(async () => {
      sim = await startUpstreamSim();
      sim.world.register('dash-taken.com');
      t = await createTestApp({ target, env: simRdapEnv(sim, { RDAP_HOST_RATE_PER_SECOND: '1000' }) });
    });
    after(async () => {
      await t?.close();
      await sim?.close();
    });

    async function signedIn(plan: 'starter' | 'free'): Promise<DashboardBrowser> {
      const email = `bulk-${plan}-${Math.random().toString(36).slice(2)}@example.com`;
      const browser = new DashboardBrowser(t.app);
      const signIn = await browser.signIn(email, await t.keyFor(plan, email));
      assert.equal(signIn.statusCode, 303, signIn.body);
      return browser;
    }

    it('starts a check from a pasted list, shows its progress bar, downloads the results and cancels', async () => {
      const browser = await signedIn('starter');
      const page = await browser.get('/dashboard/bulk-checks');
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<a href="\/dashboard\/bulk-checks" aria-current="page">Bulk checks<\/a>/);
      assert.match(page.body, /No bulk check yet/);
      const guide = /href="(\/docs\/guides\/[^"#]+)#([^"]+)"/.exec(page.body)!;
      const served = await t.app.inject(guide[1]!);
      assert.equal(served.statusCode, 200, `${guide[1]} is a served guide`);
      assert.match(served.body, new RegExp(`id="${guide[2]}"`), 'with the section the page links to');

      const started = await browser.post('/dashboard/bulk-checks', {
        domains: 'dash-taken.com\nDash-Taken.com\ndash-free.com\nnot a name\n',
      });
      assert.equal(started.statusCode, 303, started.body);
      assert.equal(started.headers.location, '/dashboard/bulk-checks?done=started');
      const queued = await browser.get('/dashboard/bulk-checks?done=started');
      assert.match(queued.body, /<progress value="1" max="3"/, 'the malformed name is decided at once');
      assert.match(queued.body, /1 duplicates merged/);

      await runJob(t.app.ctx, 'bulk-checks');
      const done = await browser.get('/dashboard/bulk-checks');
      assert.match(done.body, /<progress value="3" max="3"/);
      assert.match(done.body, /bulk-done/);
      const id = /data-id="(bulk_\w+)"/.exec(done.body)![1]!;
      const csv = await browser.get(`/dashboard/bulk-checks/${id}/results?format=csv`);
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.deepEqual(
        csv.body
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(',').slice(0, 3).join(',')),
        ['dash-taken.com,false,registered', 'dash-free.com,true,available', 'not a name,,invalid'],
      );

      t.clock.advance(1_000);
      await browser.post('/dashboard/bulk-checks', { domains: 'domain,note\ndash-later.com,x\n' });
      const second = await browser.get('/dashboard/bulk-checks');
      const queuedId = /data-id="(bulk_\w+)"/.exec(second.body)![1]!;
      assert.notEqual(queuedId, id);
      const cancelled = await browser.post(`/dashboard/bulk-checks/${queuedId}/cancel`);
      assert.equal(cancelled.statusCode, 303);
      assert.match((await browser.get('/dashboard/bulk-checks?done=cancelled')).body, /bulk-cancelled/);
    });

    it('says what is wrong with a list, and offers the plans that include bulk checks', async () => {
      const starter = await signedIn('starter');
      await starter.get('/dashboard/bulk-checks');
      const empty = await starter.post('/dashboard/bulk-checks', { domains: '\n \n' });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /data-testid="form-error">The list holds no name/);

      const free = await signedIn('free');
      const page = await free.get('/dashboard/bulk-checks');
      assert.match(page.body, /data-testid="plan-required"/);
      assert.doesNotMatch(page.body, /data-testid="bulk-names"/);
    });
  });
}
