import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startUpstreamSim, type UpstreamSim } from '../src/index.ts';

/** How long the client waits on a request that is never answered: it is expected to fire, so loading the machine only makes it pass later. */
const HANG_WAIT_MS = 300;

describe('upstream-sim RDAP: errors and hangs at a share of requests', () => {
  let sim: UpstreamSim;
  before(async () => {
    sim = await startUpstreamSim();
    sim.world.register('example.com');
  });
  after(() => sim.close());

  it('answers about the set share of requests 503 and the rest as usual', async () => {
    sim.rdap.setFaults('verisign', { errorShare: 0.25 });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${sim.url}/rdap/verisign/domain/example.com`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    sim.rdap.clearFaults();
    const errors = statuses.filter((status) => status === 503).length;
    assert.equal(errors + statuses.filter((status) => status === 200).length, 200);
    assert.ok(errors > 25 && errors < 75, `${errors} of 200 answered 503`);
  });

  it('draws errors and hangs at the set shares, the rest answered as usual', () => {
    sim.rdap.setFaults('pir', { errorShare: 0.1, hangShare: 0.2 });
    const draws = Array.from({ length: 2000 }, () => sim.rdap.faults.drawFailure('pir'));
    sim.rdap.clearFaults();
    const errors = draws.filter((draw) => draw === 'error').length;
    const hangs = draws.filter((draw) => draw === 'hang').length;
    assert.ok(errors > 150 && errors < 250, `${errors} errors of 2000`);
    assert.ok(hangs > 320 && hangs < 480, `${hangs} hangs of 2000`);
    assert.equal(sim.rdap.faults.drawFailure('pir'), null, 'no shares set, no failure');
  });

  it('leaves a request drawn to hang unanswered, so the client times out', async () => {
    sim.rdap.setFaults('verisign', { hangShare: 1 });
    await assert.rejects(
      fetch(`${sim.url}/rdap/verisign/domain/example.com`, { signal: AbortSignal.timeout(HANG_WAIT_MS) }),
      /abort|timeout/i,
    );
    sim.rdap.clearFaults();
  });
});
