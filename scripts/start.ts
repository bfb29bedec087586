/**
 * `npm start`: the whole system on its embedded defaults with demo data, in one process.
 *
 * - the upstream simulator (RDAP, CZDS, Wayback CDX, Moz, Majestic) on loopback, since the real
 *   upstreams need credentials and network this demo does not assume;
 * - the Domain Intelligence API on SQLite under DATA_DIR, its real clients pointed at the
 *   simulator, and on first start the real pipeline run over a few simulated days so the
 *   feed holds RDAP-verified drops; a demo account with a fresh key;
 * - the social platform with demo users, mail, notifications, photos and the sample app;
 * - the sample app.
 *
 * Ports: DOMAIN_INTEL_PORT (3000), PLATFORM_PORT (3100), SAMPLE_APP_PORT (3200), SIM_PORT (3900).
 */
import path from 'node:path';
import { startUpstreamSim } from '@repo/upstream-sim';
import { runDemoPipeline } from 'domain-intel/demo/demo-pipeline.ts';
import { DEMO_DAYS, openDemoWorld } from 'domain-intel/demo/demo-world.ts';
import { simulatorEnv } from 'domain-intel/demo/simulator-env.ts';
import { buildApp as buildDomainIntel } from 'domain-intel/src/app.ts';
import { loadDomainIntelConfig } from 'domain-intel/src/config.ts';
import { logProgress } from 'domain-intel/src/jobs/progress.ts';
import { startSampleApp } from 'sample-app/src/start.ts';
import { seedDemo } from 'social-platform/demo/seed.ts';
import { buildApp as buildPlatform } from 'social-platform/src/app.ts';
import { loadPlatformConfig } from 'social-platform/src/config.ts';

// Quiet by default: warnings and errors only, so the demo key stays on screen; LOG_LEVEL=info shows every request.
const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
const port = (name: string, fallback: number) => Number(env[name] ?? fallback);
const host = env.HOST ?? '127.0.0.1';
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const urls = {
  domainIntel: `http://${host}:${port('DOMAIN_INTEL_PORT', 3000)}`,
  platform: `http://${host}:${port('PLATFORM_PORT', 3100)}`,
  sampleApp: `http://${host}:${port('SAMPLE_APP_PORT', 3200)}/`,
};

const log = (line: string) => process.stdout.write(`${line}\n`);

// The simulated world began DEMO_DAYS before the first start; after the first start's replay, and on
// every later start, the simulated present is today.
const { world, churn, needsReplay, markReplayed } = await openDemoWorld(dataDir);
const sim = await startUpstreamSim({ world, host, port: port('SIM_PORT', 3900) });

// While the demo pipeline replays past days the service's clock follows the simulated world;
// afterwards it is the real clock.
let replaying = false;
const clock = { now: () => (replaying ? world.now() : Date.now()) };

const domainIntelConfig = loadDomainIntelConfig({
  ...env,
  DATA_DIR: dataDir,
  PORT: String(port('DOMAIN_INTEL_PORT', 3000)),
  HOST: host,
  PUBLIC_URL: urls.domainIntel,
  ...simulatorEnv(sim),
  // The politeness limits that protect the real upstreams would only slow the local simulator.
  WAYBACK_REQUESTS_PER_MINUTE: '6000',
  RDAP_HOST_RATE_PER_SECOND: '500',
  RDAP_HOST_CONCURRENCY: '32',
});
const domainIntel = await buildDomainIntel(domainIntelConfig, { clock });
const { ctx } = domainIntel;

if (needsReplay) {
  log(`Replaying ${DEMO_DAYS} simulated days of zone files through the pipeline (first start only)…`);
  replaying = true;
  try {
    await runDemoPipeline(ctx, churn, { days: DEMO_DAYS, progress: logProgress(log) });
    await markReplayed();
  } finally {
    replaying = false;
  }
}
const demoEmail = 'demo@domain-intel.example';
const demoKey = (await ctx.accounts.findSummary(demoEmail))
  ? await ctx.accounts.createKey(demoEmail, `npm start ${new Date().toISOString()}`)
  : (await ctx.accounts.signUp({ email: demoEmail, plan: 'enterprise' })).key;
await domainIntel.listen({ host, port: port('DOMAIN_INTEL_PORT', 3000) });

const platformConfig = loadPlatformConfig({
  ...env,
  DATA_DIR: dataDir,
  PORT: String(port('PLATFORM_PORT', 3100)),
  HOST: host,
  PUBLIC_URL: urls.platform,
  SAMPLE_APP_URL: urls.sampleApp,
});
const platform = await buildPlatform(platformConfig);
const demo = await seedDemo(platform.platform);
await platform.listen({ host, port: port('PLATFORM_PORT', 3100) });

const sampleApp = await startSampleApp({ host, port: port('SAMPLE_APP_PORT', 3200), platformUrl: urls.platform, env });

// Sign-up confirmations and dashboard sign-in links go by mail; without SMTP_URL the demo writes them as files.
const mailGoes =
  ctx.mailer?.transport === 'outbox'
    ? `written to ${path.join(dataDir, 'outbox')}/*.eml`
    : `through ${ctx.mailer?.transport ?? 'nothing'}`;

log(`
Everything is running (data in ${dataDir}; Ctrl+C stops it all).

Domain Intelligence API   ${urls.domainIntel}
  API reference           ${urls.domainIntel}/docs
  Dashboard               ${urls.domainIntel}/dashboard
  Sign-up                 ${urls.domainIntel}/signup   (account mail: ${mailGoes})
  Demo key (Enterprise)   ${demoKey.key}   (shown once; account ${demoEmail})
  Try                     curl -H "Authorization: Bearer ${demoKey.key}" "${urls.domainIntel}/v1/domains?limit=5"

Social platform           ${urls.platform}
  Demo login              ${demo.login.user_name} / ${demo.login.password}
  Sample app (in canvas)  ${urls.platform}/apps/${demo.app_id}
Sample app                ${sampleApp.url}
Upstream simulator        ${sim.url}
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([sampleApp.close(), platform.close(), domainIntel.close()]);
    await sim.close();
    process.exit(0);
  });
}
