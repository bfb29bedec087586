import { SIM_MAJESTIC_KEY, SIM_MOZ_TOKEN, SIM_STRIPE_PRICES, type UpstreamSim } from '@repo/upstream-sim';
import { DEMO_CHURN_OPTIONS } from './demo-pipeline.ts';

/**
 * The environment that points every upstream of the service (RDAP bootstrap and the RDAP
 * servers IANA's file lacks, port-43 WHOIS, CZDS, Wayback CDX, Moz, Majestic) at a running
 * simulator. `npm start`'s demo, the end-to-end tests and the benchmarks all start from it, so
 * they exercise the same real clients. Async: the simulated RDAP servers' ports open on demand.
 */
export async function simulatorEnv(sim: UpstreamSim): Promise<Record<string, string>> {
  return {
    RDAP_BOOTSTRAP_URL: `${sim.url}/rdap/bootstrap/dns.json`,
    // The simulated registries that publish RDAP servers IANA's file lacks, in place of the real ones.
    RDAP_EXTRA_SERVERS: JSON.stringify(await sim.rdap.extraServers()),
    // Every WHOIS server of the built-in table stays real unless named here: the simulated ones replace theirs.
    WHOIS_SERVERS: JSON.stringify(sim.whois.servers()),
    RDAP_ALLOW_INSECURE: '1',
    CZDS_AUTH_URL: `${sim.url}/czds-auth`,
    CZDS_API_URL: sim.url,
    CZDS_USERNAME: sim.czds.username,
    CZDS_PASSWORD: sim.czds.password,
    WAYBACK_CDX_URL: `${sim.url}/wayback/cdx/search/cdx`,
    MOZ_API_URL: `${sim.url}/moz/v2/url_metrics`,
    MOZ_TOKEN: SIM_MOZ_TOKEN,
    MAJESTIC_API_URL: `${sim.url}/majestic/api/json`,
    MAJESTIC_API_KEY: SIM_MAJESTIC_KEY,
    // The lifecycle plans its RDAP lookups by the registry timeline the demo's churn plays.
    LIFECYCLE_REDEMPTION_DAYS: String(DEMO_CHURN_OPTIONS.redemptionDays),
    LIFECYCLE_PENDING_DELETE_DAYS: String(DEMO_CHURN_OPTIONS.pendingDeleteDays),
  };
}

/**
 * The Stripe settings that point billing at the simulator's Stripe account (its secret key and
 * its two prices) with the webhook signing secret the simulator signs with, once its endpoint is
 * registered (`sim.stripe.setWebhookEndpoint(<service>/billing/webhook, webhookSecret)`).
 */
export function stripeSimulatorEnv(sim: UpstreamSim, webhookSecret: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: sim.stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PRICE_STARTER: SIM_STRIPE_PRICES.starter,
    STRIPE_PRICE_ENTERPRISE: SIM_STRIPE_PRICES.enterprise,
    STRIPE_API_URL: sim.url,
  };
}
