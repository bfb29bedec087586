import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StripeSimControl, StripeSimState } from '@repo/upstream-sim';

/**
 * The demo's Stripe account (customers, subscriptions, invoices, events) kept in
 * DATA_DIR/stripe-sim.json: the service remembers the customer and subscription of an upgrade,
 * so after a restart the simulator must still know them (the portal, the period end, the
 * webhooks all name them). Restores the saved state into `stripe`, then gives the function that
 * saves it; `npm start` calls that on every change the simulator reports.
 */
export function keepDemoStripe(dataDir: string, stripe: StripeSimControl): () => void {
  const file = path.join(dataDir, 'stripe-sim.json');
  const saved = readState(file);
  if (saved) stripe.restore(saved);
  return () => {
    // Written at once, before the change's events go out: the file is never behind a webhook.
    mkdirSync(dataDir, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(stripe.snapshot()));
    renameSync(partial, file);
  };
}

function readState(file: string): StripeSimState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const state = JSON.parse(text) as Partial<StripeSimState>;
  const lists = [
    'customers',
    'prices',
    'checkoutSessions',
    'portalSessions',
    'subscriptions',
    'invoices',
    'events',
    'orders',
  ];
  if (lists.some((name) => !Array.isArray(state[name as keyof StripeSimState]))) {
    throw new Error(`${file} is not a saved Stripe simulator state; delete it to start billing over`);
  }
  return state as StripeSimState;
}
