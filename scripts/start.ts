/**
 * `npm start`: the whole system on its embedded defaults with demo data, in one process.
 *
 * - the upstream simulator (RDAP, CZDS, Wayback CDX, Moz, Majestic) on loopback, since the real
 *   upstreams need credentials and network this demo does not assume;
 * - the Domain Intelligence API on SQLite under DATA_DIR, its real clients pointed at the
 *   simulator (Stripe too: billing with its webhooks), and on first start the real pipeline run
 *   over a few simulated days so the feed holds RDAP-verified drops; a demo account whose key
 *   each start replaces;
 * - the social platform with demo users, mail, notifications, photos and the sample app;
 * - the sample app;
 * - the demo's control server: `npm run demo -- advance` moves the simulated world on, and a
 *   webhook inbox.
 *
 * Ports: DOMAIN_INTEL_PORT (3000), PLATFORM_PORT (3100), SAMPLE_APP_PORT (3200), SIM_PORT (3900),
 * DEMO_PORT (3990).
 */
import path from 'node:path';
import { ConfigError, emptyIsUnset, loadConfig, newSecret, portNumber } from '@repo/server-kit';
import { startUpstreamSim } from '@repo/upstream-sim';
import { advanceDemo } from 'domain-intel/demo/demo-advance.ts';
import { DEMO_BRAND, DEMO_BRAND_EMAIL, seedBrandAlert } from 'domain-intel/demo/demo-brand.ts';
import { startDemoControl } from 'domain-intel/demo/demo-control.ts';
import { DEMO_EMAIL, replaceDemoKey } from 'domain-intel/demo/demo-key.ts';
import { runDemoPipeline } from 'domain-intel/demo/demo-pipeline.ts';
import { keepDemoStripe } from 'domain-intel/demo/demo-stripe.ts';
import { DEMO_DAYS, openDemoWorld } from 'domain-intel/demo/demo-world.ts';
import { simulatorEnv, stripeSimulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import { PLANS } from 'domain-intel/src/accounts/plans.ts';
import { buildApp as buildDomainIntel } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { logProgress, silentProgress } from 'domain-intel/src/jobs/progress.ts';
import { startSampleApp } from 'sample-app/src/start.ts';
import { seedDemo } from 'social-platform/demo/seed.ts';
import { buildApp as buildPlatform } from 'social-platform/src/app.ts';
import { loadPlatformConfig } from 'social-platform/src/config.ts';
import { z } from 'zod';

// A bad setting, ours or a service's, is told by name, without a stack trace; anything else as Node would tell it.
process.on('uncaughtException', (error) => {
  process.stderr.write(error instanceof ConfigError ? `npm start: ${error.message}\n` : `${error.stack ?? error}\n`);
  process.exit(1);
});

/** npm start's own variables (the services check theirs), before anything starts or is written; an empty one is unset. */
const settings = loadConfig(
  z.object({
    HOST: emptyIsUnset(z.string().default('127.0.0.1')),
    // An empty DATA_DIR would have been the current directory.
    DATA_DIR: emptyIsUnset(z.string().default('./data')),
    // Quiet by default: warnings and errors only, so the demo key stays on screen; LOG_LEVEL=info shows every request.
    LOG_LEVEL: emptyIsUnset(z.string().default('warn')),
    DOMAIN_INTEL_PORT: portNumber(3000),
    PLATFORM_PORT: portNumber(3100),
    SAMPLE_APP_PORT: portNumber(3200),
    SIM_PORT: portNumber(3900),
    DEMO_PORT: portNumber(3990),
  }),
);
const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: settings.LOG_LEVEL };
const host = settings.HOST;
const dataDir = path.resolve(settings.DATA_DIR);
const urls = {
  domainIntel: `http://${host}:${settings.DOMAIN_INTEL_PORT}`,
  platform: `http://${host}:${settings.PLATFORM_PORT}`,
  sampleApp: `http://${host}:${settings.SAMPLE_APP_PORT}/`,
};

const log = (line: string) => process.stdout.write(`${line}\n`);

// The simulated world began DEMO_DAYS before the first start; after the first start's replay, and on
// every later start, the simulated present is today plus every day `npm run demo -- advance` added.
const demoWorld = await openDemoWorld(dataDir);
const { world, churn } = demoWorld;
// Stripe's account is kept in DATA_DIR: the service remembers its customers and subscriptions.
let saveStripe = () => {};
const sim = await startUpstreamSim({
  world,
  host,
  port: settings.SIM_PORT,
  stripe: { now: () => demoWorld.now(), onChange: () => saveStripe() },
});
saveStripe = keepDemoStripe(dataDir, sim.stripe);
// Stripe signs its webhooks with the endpoint's secret; a new one each start, given to both sides.
const stripeWebhookSecret = newSecret('whsec_');

// While the demo pipeline replays past days the service's clock follows the simulated world;
// afterwards it is the demo's present (the real clock, moved on by every advanced day).
let replaying = false;
const clock = { now: () => (replaying ? world.now() : demoWorld.now()) };

const domainIntelConfig = loadDomainIntelConfig({
  ...env,
  DATA_DIR: dataDir,
  PORT: String(settings.DOMAIN_INTEL_PORT),
  HOST: host,
  PUBLIC_URL: urls.domainIntel,
  ...(await simulatorEnv(sim)),
  ...stripeSimulatorEnv(sim, stripeWebhookSecret),
  // A month can pass in a minute here (npm run demo -- advance): a dashboard session lasts the longest allowed.
  DASHBOARD_SESSION_HOURS: '720',
  // The politeness limits that protect the real upstreams would only slow the local simulator.
  WAYBACK_REQUESTS_PER_MINUTE: '6000',
  RDAP_HOST_RATE_PER_SECOND: '500',
  WHOIS_HOST_RATE_PER_SECOND: '500',
  RDAP_HOST_CONCURRENCY: '32',
});
const domainIntel = await buildDomainIntel(domainIntelConfig, { clock });
const { ctx } = domainIntel;

// The control server (and its webhook inbox) listens before the replay: the brand alert fires into it then.
const control = await startDemoControl({
  host,
  port: settings.DEMO_PORT,
  anyPortIfTaken: !process.env.DEMO_PORT,
  dataDir,
  now: () => demoWorld.now(),
  advance: (days) => advanceDemo(ctx, demoWorld, sim.stripe, { days, progress: silentProgress }),
  aboutToDrop: () =>
    [...world.domains.values()]
      .filter((domain) => domain.status.includes('pending delete'))
      .map((domain) => domain.name)
      .sort(),
});

if (demoWorld.needsReplay) {
  log(`Replaying ${DEMO_DAYS} simulated days of zone files through the pipeline (first start only)…`);
  replaying = true;
  try {
    await seedBrandAlert(ctx, control.inboxUrl);
    await runDemoPipeline(ctx, churn, { days: DEMO_DAYS, progress: logProgress(log) });
    await demoWorld.markReplayed();
  } finally {
    replaying = false;
  }
}
// One demo key at a time: this start's replaces the previous start's (which would otherwise stay valid for good).
const demoKey = await replaceDemoKey(ctx.accounts);
const domainIntelAddress = await domainIntel.listen({ host, port: settings.DOMAIN_INTEL_PORT });
// As if registered in Stripe's dashboard: events go to the service's webhook, signed with its secret.
sim.stripe.setWebhookEndpoint(`${domainIntelAddress}/billing/webhook`, stripeWebhookSecret);
// Periods that ended while the demo was stopped renew or end now, and the service hears of it.
sim.stripe.advanceTime();

const platformConfig = loadPlatformConfig({
  ...env,
  DATA_DIR: dataDir,
  PORT: String(settings.PLATFORM_PORT),
  HOST: host,
  PUBLIC_URL: urls.platform,
  SAMPLE_APP_URL: urls.sampleApp,
  // The sample app's callback URL is on loopback over http.
  CALLBACK_ALLOW_INSECURE: '1',
});
const platform = await buildPlatform(platformConfig);
const demo = await seedDemo(platform.platform);
// The sample app gets this start's secret (the last start's stops working), requires a signed exchange
// and hears the platform's events (app.deauthorized …) at its callback URL.
const sampleAppSecret = await platform.platform.apps.rotateSecret(demo.app_id);
await platform.platform.apps.setSignedExchangeRequired(demo.app_id, true);
await platform.platform.appEvents.setCallbackUrl(demo.app_id, new URL('platform/events', urls.sampleApp).href);
await platform.listen({ host, port: settings.PLATFORM_PORT });

const sampleApp = await startSampleApp({
  host,
  port: settings.SAMPLE_APP_PORT,
  platformUrl: urls.platform,
  env: { ...env, APP_SECRET: sampleAppSecret },
});

// The demo account's plan as it stands (Starter at first; whatever the dashboard's Stripe checkout made it).
const demoAccount = await ctx.accounts.summary(DEMO_EMAIL);
const demoPlan = `${PLANS[demoAccount.plan].name}${demoAccount.subscription.status === 'ended' ? ', ended' : ''}`;

// Sign-up confirmations and dashboard sign-in links go by mail; without SMTP_URL the demo writes them as files.
const mailGoes =
  ctx.mailer?.transport === 'outbox'
    ? `written to ${path.join(dataDir, 'outbox')}/*.eml, each with its plain text beside it as .txt`
    : `through ${ctx.mailer?.transport ?? 'nothing'}`;

// The brand alerts the inbox received (the first start's replay fires them; later starts begin with an empty inbox).
const brandAlerts = control.inbox
  .flatMap(
    (entry) => (entry.body as { data?: { rows?: { domain: string; match?: { kind: string } }[] } }).data?.rows ?? [],
  )
  .filter((row) => row.match)
  .map((row) => `${row.domain} (${row.match!.kind})`);

// Ctrl+C stops everything in order; listened for before the banner, which tells whoever reads it that it may.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([control.close(), sampleApp.close(), platform.close(), domainIntel.close()]);
    await sim.close();
    process.exit(0);
  });
}

log(`
Everything is running (data in ${dataDir}; Ctrl+C stops it all).

Domain Intelligence API   ${urls.domainIntel}
  API reference           ${urls.domainIntel}/docs
  Dashboard               ${urls.domainIntel}/dashboard
  Sign-up                 ${urls.domainIntel}/signup   (account mail: ${mailGoes})
  Demo key (${demoPlan})${' '.repeat(Math.max(1, 13 - demoPlan.length))}${demoKey.key}   (shown once; replaces the last start's; account ${DEMO_EMAIL})
  Billing                 Upgrade in the dashboard: Stripe's pages and webhooks are the simulator's
  Try                     curl -H "Authorization: Bearer ${demoKey.key}" "${urls.domainIntel}/v1/domains?limit=5"
  New registrations       curl -H "Authorization: Bearer ${demoKey.key}" "${urls.domainIntel}/v1/domains?status=new&limit=5"

Social platform           ${urls.platform}
  Demo login              ${demo.login.user_name} / ${demo.login.password}
  Sample app (in canvas)  ${urls.platform}/apps/${demo.app_id}
Sample app                ${sampleApp.url}
Upstream simulator        ${sim.url}   (Stripe's Checkout and portal too)

Advance the simulated world   npm run demo -- advance --days 1   (zone files, drops, deliveries, Stripe's clock)
Webhook inbox                 ${control.inboxUrl}   (a webhook target to try; npm run demo -- inbox lists what came)
Brand alert                   "${DEMO_BRAND}" lookalikes for ${DEMO_BRAND_EMAIL}: ${brandAlerts.length > 0 ? `${brandAlerts.join(', ')} in the inbox` : 'fired on the first start (its replay)'}
`);
