import { errorMessage } from '@repo/server-kit';
import type { PlanId } from './plans.ts';

/**
 * A change of the plan whose limits apply to an account: an upgrade or downgrade (operator
 * CLI or Stripe), or a paid plan ending (`ended`: its keys answer 401 key_revoked and nothing
 * of the account runs until it subscribes again).
 */
export interface PlanChange {
  accountId: string;
  email: string;
  from: PlanId;
  to: PlanId;
  ended: boolean;
  /** `operator`: `domain-intel plans set`; `billing`: a Stripe subscription change. */
  source: 'operator' | 'billing';
}

export type PlanChangeListener = (change: PlanChange) => Promise<void> | void;

/** Listeners of plan changes; one failing listener does not stop the others or the change itself. */
export class PlanChangeListeners {
  readonly #listeners = new Set<PlanChangeListener>();

  /** Registers a listener; returns the function that removes it. */
  add(listener: PlanChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async notify(change: PlanChange): Promise<void> {
    const results = await Promise.allSettled([...this.#listeners].map(async (listener) => listener(change)));
    for (const result of results) {
      if (result.status === 'rejected') {
        const message = errorMessage(result.reason);
        process.emitWarning(`plan change listener failed: ${message}`, { code: 'DOMAIN_INTEL_PLAN_CHANGE' });
      }
    }
  }
}
