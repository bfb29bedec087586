import type { ManualClock } from '@repo/server-kit';
import { startUpstreamSim, type UpstreamSim } from '@repo/upstream-sim';

export const WEBHOOK_SECRET = 'whsec_test_billing_secret_0123456789';

/** The Stripe settings that point the service at the simulator. */
export function stripeEnv(sim: UpstreamSim): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: sim.stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_STARTER: 'price_sim_starter_monthly',
    STRIPE_PRICE_ENTERPRISE: 'price_sim_enterprise_monthly',
    STRIPE_API_URL: sim.url,
  };
}

/** The simulator on the test's clock, so signatures, periods and the service agree on the time. */
export async function startStripeSim(clock: ManualClock): Promise<UpstreamSim> {
  const sim = await startUpstreamSim({ stripe: { now: () => clock.now() } });
  sim.stripe.webhooks.behaviour.retryDelaysMs = [20, 50, 100, 200];
  return sim;
}

/** What a person does on Stripe's hosted pages: submits a form there (no redirects followed). */
export async function submitHostedForm(url: string, form: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
}
