/**
 * npm run screenshots: every web page of both services (and the sample app) at 1280 px and at
 * 390 px, as PNGs in docs/screenshots/pages/, with an index (README.md) beside them.
 *
 * It starts the demo as `npm start` does (scripts/start.ts), on ports and a DATA_DIR of its own
 * so a running demo is left alone, then walks the pages in Debian's Chromium as a newcomer
 * would: the public pages, sign-up through the mailed link, the new account's empty dashboard,
 * an upgrade through the Stripe simulator's Checkout (its invoice on the account page), the demo
 * account's dashboard with data, and the platform signed in as the demo user.
 *
 * Screens are taken at device scale 1 (small files). Set KEEP_DATA=1 to keep the demo's data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'docs', 'screenshots', 'pages');
const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 800 } },
  { name: '390', viewport: { width: 390, height: 844 } },
] as const;
// Ports of their own (npm start's are 3000-3990), so a demo already running is not disturbed.
const PORTS = { DOMAIN_INTEL_PORT: 4300, PLATFORM_PORT: 4310, SAMPLE_APP_PORT: 4320, SIM_PORT: 4330, DEMO_PORT: 4340 };
const HOST = '127.0.0.1';
/** The longest picture, in CSS pixels: the reference pages run to 6,000 px and more. */
const MAX_HEIGHT = 2400;
const di = `http://${HOST}:${PORTS.DOMAIN_INTEL_PORT}`;
const platform = `http://${HOST}:${PORTS.PLATFORM_PORT}`;
const sampleApp = `http://${HOST}:${PORTS.SAMPLE_APP_PORT}/`;

interface Shot {
  file: string;
  service: string;
  page: string;
  width: string;
}
const shots: Shot[] = [];

/** What npm start prints that the walk needs: the demo account, its key, the platform's login. */
interface Demo {
  email: string;
  key: string;
  user: string;
  password: string;
  appUrl: string;
}

function startDemo(dataDir: string): Promise<{ child: ChildProcess; demo: Demo }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'start.ts')], {
    cwd: root,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(PORTS).map(([k, v]) => [k, String(v)])),
      DATA_DIR: dataDir,
      HOST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!output.includes('Everything is running')) return;
      const key = /Demo key \([^)]*\)\s+(di_live_\w+).*account (\S+?)\)/.exec(output);
      const login = /Demo login\s+(\S+) \/ (\S+)/.exec(output);
      const app = /Sample app \(in canvas\)\s+(\S+)/.exec(output);
      if (!key || !login || !app) return;
      child.stdout?.off('data', read);
      resolve({
        child,
        demo: { key: key[1]!, email: key[2]!, user: login[1]!, password: login[2]!, appUrl: app[1]! },
      });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before it was running:\n${output}`)));
  });
}

async function shoot(page: Page, service: string, name: string, width: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Chart.js animates its first draw; the picture waits for the finished chart.
  await page.waitForTimeout(800);
  const file = `${service}-${name}-${width}.png`;
  // The whole page, down to MAX_HEIGHT: a long reference page's first screens tell how it looks.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const clip = { x: 0, y: 0, width: page.viewportSize()?.width ?? 1280, height: Math.min(height, MAX_HEIGHT) };
  await page.screenshot({ path: path.join(outDir, file), fullPage: true, clip });
  shots.push({ file, service, page: name, width });
  process.stdout.write(`  ${file}\n`);
}

/** The newest mail in the demo's outbox that names `address`, as its decoded .txt. */
async function mailTo(dataDir: string, address: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  for (let attempt = 0; attempt < 50; attempt++) {
    const names = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.txt')).sort();
    for (const name of names.reverse()) {
      const text = await readFile(path.join(outbox, name), 'utf8');
      if (text.includes(address)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no mail to ${address} in ${outbox}`);
}

async function signIn(page: Page, email: string, key: string): Promise<void> {
  await page.goto(`${di}/dashboard`);
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${di}/dashboard`);
}

async function signOut(page: Page): Promise<void> {
  await page.locator('.dash-who button').click();
  await page.waitForLoadState('networkidle');
}

async function domainIntelPages(context: BrowserContext, width: string, dataDir: string, demo: Demo) {
  const page = await context.newPage();
  const shot = (name: string) => shoot(page, 'domain-intel', name, width);

  await page.goto(`${di}/docs`);
  await page.locator('.swagger-ui .opblock').first().waitFor();
  await shot('api-reference');
  for (const [name, url] of [
    ['error-codes', '/docs/errors'],
    ['webhook-events', '/docs/events'],
    ['guides', '/docs/guides'],
  ] as const) {
    const response = await page.goto(`${di}${url}`);
    if (response?.ok()) await shot(name);
  }

  // A newcomer: sign up, confirm through the mailed link, the key shown once.
  const email = `screens-${width}-${Date.now()}@example.com`;
  await page.goto(`${di}/signup`);
  await shot('signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.locator('form[action="/signup"] button[type="submit"]').click();
  await page.waitForURL(/\/signup/);
  await shot('signup-sent');
  const link = /https?:\/\/\S+\/signup\/confirm\S*/.exec(await mailTo(dataDir, email))?.[0];
  if (!link) throw new Error(`no confirmation link in the mail to ${email}`);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, di));
  await shot('signup-confirm');
  await page.locator('[data-action="confirm-signup"]').click();
  await page.getByTestId('signup-key').waitFor();
  await shot('signup-key');
  const key = ((await page.getByTestId('signup-key').textContent()) ?? '').trim();

  await page.goto(`${di}/dashboard`);
  await shot('dashboard-sign-in');

  // The new Free account: every list empty, each saying what to do next.
  await signIn(page, email, key);
  await shot('dashboard-account-new');
  for (const [name, url] of [
    ['dashboard-filters-empty', '/dashboard/filters'],
    ['dashboard-deliveries-empty', '/dashboard/deliveries'],
    ['dashboard-watchlist-empty', '/dashboard/watchlist'],
  ] as const) {
    await page.goto(`${di}${url}`);
    await shot(name);
  }

  // Upgrade through the Stripe simulator's Checkout: the account page lists the first invoice.
  await page.goto(`${di}/dashboard`);
  const upgrade = page.locator('[data-action="upgrade-starter"]');
  if (await upgrade.count()) {
    await upgrade.click();
    await page.locator('[data-action="pay"]').click();
    await page.waitForURL(`${di}/dashboard?done=upgraded`);
    await shot('dashboard-account-upgraded');
  }
  await signOut(page);

  // The demo account: a month of data, a key with a long name beside the table's actions.
  await signIn(page, demo.email, demo.key);
  await page.locator('input[name="name"]').fill('Production crawler (eu-west-1, nightly batch)');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key').waitFor();
  await page.goto(`${di}/dashboard`);
  await shot('dashboard-account');
  for (const [name, url] of [
    ['dashboard-feed', '/dashboard/feed'],
    ['dashboard-feed-filtered', '/dashboard/feed?tld=net&tld=org&min_da=30'],
    ['dashboard-filters', '/dashboard/filters'],
    ['dashboard-deliveries', '/dashboard/deliveries'],
    ['dashboard-watchlist', '/dashboard/watchlist'],
    ['dashboard-forecasts', '/dashboard/forecasts'],
  ] as const) {
    await page.goto(`${di}${url}`);
    await shot(name);
  }
  await signOut(page);
  await page.close();
}

async function platformPages(context: BrowserContext, width: string, demo: Demo) {
  const page = await context.newPage();
  const shot = (name: string) => shoot(page, 'platform', name, width);
  await page.goto(`${platform}/`);
  await shot('welcome');
  await page.goto(`${platform}/signup`);
  await shot('signup');
  await page.goto(`${platform}/login`);
  await shot('login');
  await page.locator('input[name="user_name"], input[name="login"], input[name="email"]').first().fill(demo.user);
  await page.locator('input[type="password"]').first().fill(demo.password);
  await page.locator('form[action="/login"] button[type="submit"]').click();
  await page.waitForLoadState('networkidle');
  for (const [name, url] of [
    ['home', '/'],
    ['people', '/people'],
    ['friends', '/friends'],
    ['inbox', '/mail'],
    ['notifications', '/notifications'],
    ['photos', '/photos'],
    ['apps', '/apps'],
    ['developer', '/developer'],
    ['settings', '/settings'],
    ['settings-apps', '/settings/apps'],
    ['profile-own', `/u/${demo.user}`],
    ['not-found', '/no-such-page'],
  ] as const) {
    await page.goto(`${platform}${url}`);
    await shot(name);
  }
  // The app's page: its consent page first, the app in the canvas once allowed.
  // The first pass allows the app, so the second goes straight to the canvas.
  await page.goto(demo.appUrl);
  const allow = page.locator('form[action$="/allow"] button[type="submit"]');
  if (await allow.count()) {
    await shot('app-consent');
    await allow.click();
  }
  await page.waitForLoadState('networkidle');
  await shot('canvas');
  await page.close();

  const app = await context.newPage();
  await app.goto(sampleApp);
  await shoot(app, 'sample-app', 'home', width);
  await app.close();
}

function indexOf(all: Shot[]): string {
  const pages = [...new Map(all.map((shot) => [`${shot.service}/${shot.page}`, shot])).values()];
  const taken = new Set(all.map((shot) => shot.file));
  const cell = (service: string, page: string, width: string) => {
    const file = `${service}-${page}-${width}.png`;
    return taken.has(file) ? `![${service} ${page} at ${width} px](${file})` : '–';
  };
  const rows = pages.map(
    ({ service, page }) => `| ${service} | ${page} | ${cell(service, page, '1280')} | ${cell(service, page, '390')} |`,
  );
  return [
    '# Every page at 1280 px and 390 px',
    '',
    'Written by `npm run screenshots` (scripts/screenshots.ts) from a fresh demo; do not edit by hand.',
    '',
    '| Service | Page | 1280 px | 390 px |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'screenshots-'));
await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
process.stdout.write(`Starting the demo (data in ${dataDir}; the first start replays its simulated month)…\n`);
const { child, demo } = await startDemo(dataDir);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: width.viewport, deviceScaleFactor: 1, colorScheme: 'light' });
    await domainIntelPages(context, width.name, dataDir, demo);
    await platformPages(context, width.name, demo);
    await context.close();
  }
  await writeFile(path.join(outDir, 'README.md'), indexOf(shots));
  process.stdout.write(`${shots.length} screenshots in ${path.relative(root, outDir)}\n`);
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  if (process.env.KEEP_DATA !== '1') await rm(dataDir, { recursive: true, force: true });
}
