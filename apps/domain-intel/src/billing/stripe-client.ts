import Stripe from 'stripe';
import type { Config } from '../config.ts';

/** The Stripe settings of a configured service (all four present). */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  prices: { starter: string; enterprise: string };
  apiUrl: string;
  toleranceSeconds: number;
}

/** Stripe's settings when billing is configured (STRIPE_SECRET_KEY and friends), else undefined. */
export function stripeSettings(config: Config): StripeSettings | undefined {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return undefined;
  if (!config.STRIPE_PRICE_STARTER || !config.STRIPE_PRICE_ENTERPRISE) return undefined;
  return {
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    prices: { starter: config.STRIPE_PRICE_STARTER, enterprise: config.STRIPE_PRICE_ENTERPRISE },
    apiUrl: config.STRIPE_API_URL,
    toleranceSeconds: config.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
  };
}

/** The official client, aimed at STRIPE_API_URL (Stripe itself, or the simulator in tests and the demo). */
export function createStripeClient(settings: StripeSettings): Stripe {
  const url = new URL(settings.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    // Stripe's own advice: retry network failures with idempotency keys (the SDK adds them).
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'domain-intel' },
  });
}

/**
 * Where the dashboard's billing forms send the browser: a form's POST answers 303 to Stripe's
 * hosted Checkout or Customer Portal, and the page's CSP `form-action` must allow that target or
 * the browser stops at the redirect. Stripe's own pages, and the simulator's (it serves them at
 * STRIPE_API_URL) when the service is pointed elsewhere than Stripe.
 */
export function stripeHostedOrigins(settings: StripeSettings | undefined): string[] {
  if (!settings) return [];
  const origins = ['https://checkout.stripe.com', 'https://billing.stripe.com'];
  const api = new URL(settings.apiUrl).origin;
  if (api !== 'https://api.stripe.com') origins.push(api);
  return origins;
}
