import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freeLoopbackPort } from '@repo/server-kit/testing';
import { browserSkipReason, launchBrowser } from '@repo/server-kit/testing/browser';
import type { Browser, Page } from 'playwright-core';

const START = path.resolve('scripts/start.ts');
const DEMO_CLI = path.resolve('apps/domain-intel/demo/demo-cli.ts');
const TSX = import.meta.resolve('tsx');
const DEMO_EMAIL = 'demo@domain-intel.example';
const skip = browserSkipReason();
/** DEMO_TOUR_SHOTS=<dir> keeps a screenshot of every step there, to look at. */
const SHOTS = process.env.DEMO_TOUR_SHOTS;

/** Runs a command to its end; gives its output, failing with it when the exit code is not 0. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}:\n${output}`))));
  });
}

/**
 * The demo as a newcomer meets it: `npm start` (the script itself, on its own ports and
 * DATA_DIR), the dashboard in Chromium with the demo account, and `npm run demo -- advance`
 * between steps. Upgrade through the simulated Stripe Checkout; a webhook target (the demo's
 * inbox), a saved filter and a watched name that then drops; cancellation in the simulated
 * portal, its mail in the outbox, and the key refused once the demo has passed the period end.
 */
describe('the demo shows billing, a drop and a delivery end to end (npm start in Chromium)', { skip }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'demo-tour-'));
  let start: ChildProcess | undefined;
  let exited: Promise<number | null>;
  let banner = '';
  let env: NodeJS.ProcessEnv;
  let baseUrl: string;
  let inboxUrl: string;
  let key: string;
  let browser: Browser;
  let page: Page;

  const shot = async (name: string) => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };
  const advance = (days: number) => run([DEMO_CLI, 'advance', '--days', String(days)], env);
  const quotaStatus = async () =>
    (await fetch(`${baseUrl}/v1/quota`, { headers: { authorization: `Bearer ${key}` } })).status;

  before(async () => {
    const [domainIntel, platform, sampleApp, sim, demo] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => freeLoopbackPort()),
    );
    env = {
      ...process.env,
      // npm start's embedded default, as a newcomer runs it: with CI's DATABASE_URL the demo would keep its data in
      // the shared database's default schema, where the next run would find this run's Stripe clock and downloads.
      DATABASE_URL: '',
      REDIS_URL: '',
      REDIS_CLUSTER_URLS: '',
      DATA_DIR: dataDir,
      DOMAIN_INTEL_PORT: String(domainIntel),
      PLATFORM_PORT: String(platform),
      SAMPLE_APP_PORT: String(sampleApp),
      SIM_PORT: String(sim),
      DEMO_PORT: String(demo),
    };
    await startDemo();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  after(async () => {
    await browser?.close();
    await stopDemo();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` until its banner is out; reads the URLs and the demo key from it. */
  async function startDemo() {
    banner = '';
    start = spawn(process.execPath, ['--import', TSX, START], {
      cwd: tmpdir(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    start.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    exited = new Promise((resolve) => start?.on('exit', (code) => resolve(code)));
    const running = new Promise<void>((resolve) =>
      start?.stdout?.on('data', (chunk: Buffer) => {
        banner += chunk;
        if (/Webhook inbox\s+\S+/.test(banner)) resolve();
      }),
    );
    const first = await Promise.race([running.then(() => 'running' as const), exited.then(() => 'exited' as const)]);
    assert.equal(first, 'running', `npm start ended before it ran:\n${banner}\n${stderr}`);
    baseUrl = /Domain Intelligence API\s+(http\S+)/.exec(banner)?.[1] ?? '';
    inboxUrl = /Webhook inbox\s+(http\S+)/.exec(banner)?.[1] ?? '';
    key = /Demo key \([\w, ]+\)\s+(di_live_\w+)/.exec(banner)?.[1] ?? '';
    assert.ok(baseUrl && inboxUrl && key, banner);
  }

  /** Ctrl+C, as a newcomer stops it. */
  async function stopDemo() {
    if (!start || start.exitCode !== null) return;
    start.kill('SIGINT');
    assert.equal(await exited, 0);
  }

  async function signIn() {
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_EMAIL);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
  }

  it('shows drop forecasts after its replay: windows on pending-delete rows, a learned batch and its error', async () => {
    const get = async (path: string) =>
      (await (await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        data: Record<string, unknown>[] & Record<string, unknown>;
      };
    const pending = (await get('/v1/domains?status=pending-delete&limit=5')).data;
    assert.ok(pending.length > 0, 'the replay leaves names in pending delete');
    for (const row of pending) {
      const [earliest, expected, latest] = [
        row.expected_drop_earliest,
        row.expected_drop_at,
        row.expected_drop_latest,
      ].map((time) => Date.parse(String(time)));
      assert.ok(earliest! <= expected! && expected! <= latest!, JSON.stringify(row));
    }
    const drops = (await get('/v1/tlds/com/drops')).data as unknown as {
      batch_time_source: string | null;
      calendar: unknown[];
      forecast_error: { drops: number };
    };
    assert.equal(drops.batch_time_source, 'learned');
    assert.ok(drops.calendar.length > 0, 'the batch calendar holds the replayed days');
    assert.ok(drops.forecast_error.drops > 0, 'drops verified with their forecast');
  });

  it('signs in with the demo account and upgrades Starter to Enterprise through Checkout', async () => {
    assert.match(banner, /Demo key \(Starter\)/);
    // The first start's replay fired the brand alert into the inbox (demo/demo-brand.ts).
    assert.match(banner, /Brand alert\s+"northwind" lookalikes .*n0rthwind\.com \(homoglyph\).* in the inbox/);
    await signIn();
    const plan = page.locator('section[aria-labelledby="plan-heading"]');
    const today = page.locator('section[aria-labelledby="today-heading"]');
    assert.match((await plan.textContent()) ?? '', /Starter/);
    assert.match((await today.textContent()) ?? '', /of 1,000 calls/);
    await shot('1-starter');

    await page.locator('[data-action="upgrade-enterprise"]').click();
    await page.getByRole('heading', { name: 'Subscribe' }).waitFor();
    assert.match(page.url(), /\/stripe-sim\/checkout\/cs_/);
    assert.match((await page.textContent('body')) ?? '', /Enterprise · \$299\.00 per month/);
    await shot('2-checkout');
    await page.locator('[data-action="pay"]').click();
    await page.getByText('Payment received: your new plan applies now.').waitFor();
    assert.match((await plan.locator('.big').textContent()) ?? '', /Enterprise/);
    assert.match((await today.textContent()) ?? '', /no daily cap/);
    assert.equal(await page.locator('[data-action="manage-billing"]').count(), 1);
    await shot('3-enterprise');
  });

  it('keeps the subscription over a restart: Stripe still knows the customer, the portal opens', async () => {
    await stopDemo();
    await startDemo();
    assert.match(banner, /Demo key \(Enterprise\)/);
    await signIn();
    assert.match(
      (await page.locator('section[aria-labelledby="plan-heading"] .big').textContent()) ?? '',
      /Enterprise/,
    );
    await page.locator('[data-action="manage-billing"]').click();
    await page.getByRole('heading', { name: `Billing for ${DEMO_EMAIL}` }).waitFor();
    assert.match(
      (await page.textContent('body')) ?? '',
      /Enterprise · \$299\.00 per month[\s\S]*Renews \d{4}-\d{2}-\d{2}/,
    );
  });

  it('delivers a saved filter to the demo inbox and sees a watched name drop after advancing', async () => {
    await page.goto(`${baseUrl}/dashboard/filters`);
    await page.getByLabel('Kind').selectOption('webhook');
    await page.getByLabel('Address').fill(inboxUrl);
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByTestId('target-secret').waitFor();
    await page.getByLabel('Name').fill('every .com');
    await page.getByLabel(/^Filter/).fill('tld=com');
    await page.getByLabel(`webhook: ${inboxUrl}`).check();
    await page.getByRole('button', { name: 'Save filter' }).click();
    await page.getByText('Filter saved.').waitFor();
    await shot('4-filter');

    // The first advance tells which names drop on the next day; watch one of them.
    const firstDay = await advance(1);
    const aboutToDrop = /Drop on the next day \(pending delete now; watch one\): ([a-z0-9.-]+)/.exec(firstDay)?.[1];
    assert.ok(aboutToDrop, firstDay);
    await page.goto(`${baseUrl}/dashboard/watchlist`);
    await page.getByLabel('Domain', { exact: true }).fill(aboutToDrop);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByText('Watching it now').waitFor();

    await advance(1);
    await page.goto(`${baseUrl}/dashboard/watchlist`);
    const row = page.getByTestId('watchlist-table').locator(`tbody tr[data-domain="${aboutToDrop}"]`);
    assert.equal((await row.locator('td:nth-child(2) .status').textContent())?.trim(), 'available');
    const moves = await page.getByTestId('moves-table').locator('tbody tr').allTextContents();
    assert.ok(
      moves.some((move) => move.includes(aboutToDrop) && /dropped/.test(move)),
      moves.join('\n'),
    );
    await shot('5-watchlist');

    type Message = { type: string; body: { data: { rows?: Array<{ domain: string }>; domain?: string } } };
    const inbox = (await (await fetch(inboxUrl)).json()) as { received: Message[] };
    const batches = inbox.received.filter((entry) => entry.type === 'filter.batch');
    assert.ok(batches.length > 0, 'the saved filter delivered a batch');
    for (const batch of batches) {
      for (const delivered of batch.body.data.rows ?? []) assert.match(delivered.domain, /\.com$/);
    }
    assert.ok(
      inbox.received.some((entry) => entry.type === 'watch.transition' && entry.body.data.domain === aboutToDrop),
      'the watched name’s drop arrived as a webhook',
    );
    const cli = await run([DEMO_CLI, 'inbox'], env);
    assert.match(cli, /filter\.batch/);
  });

  it('cancels in the portal, mails "ends on …", and stops the key once the demo passes the period end', async () => {
    await page.goto(`${baseUrl}/dashboard`);
    await page.locator('[data-action="manage-billing"]').click();
    await page.getByRole('heading', { name: `Billing for ${DEMO_EMAIL}` }).waitFor();
    await page.locator('[data-action="cancel"]').click();
    await page.getByText(/^Cancels \d{4}-\d{2}-\d{2}/).waitFor();
    await shot('6-portal-cancelled');
    await page.locator('[data-action="return"]').click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();

    // The webhook arrives on its own; its mail lands in the outbox.
    const outbox = path.join(dataDir, 'outbox');
    let ending: string | undefined;
    for (let attempt = 0; attempt < 400 && !ending; attempt++) {
      const texts = readdirSync(outbox)
        .filter((name) => name.endsWith('.txt'))
        .map((name) => readFileSync(path.join(outbox, name), 'utf8'));
      ending = texts.find((text) => /Your Enterprise plan ends on \d{4}-\d{2}-\d{2}/.test(text));
      if (!ending) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(ending, 'the "ends on" mail is in the outbox');
    const endsOn = /ends on (\d{4}-\d{2}-\d{2})/.exec(ending)?.[1];
    await page.reload();
    assert.match((await page.textContent('body')) ?? '', new RegExp(`keys stop working on[\\s\\S]*${endsOn}`));
    await shot('7-cancelled');
    assert.equal(await quotaStatus(), 200, 'the key works until the period end');

    // A month and a day on (at most 31 days to the period end, one already passed above).
    const month = await advance(31);
    assert.match(month, /Stripe sub_\w+ canceled/);
    const refused = await fetch(`${baseUrl}/v1/quota`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'key_revoked');

    // The sign-in form says why the key no longer opens the dashboard.
    await page.context().clearCookies();
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByLabel('E-mail', { exact: true }).fill(DEMO_EMAIL);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/Your Enterprise plan ended on/).waitFor();
    await shot('8-plan-ended');
  });
});
