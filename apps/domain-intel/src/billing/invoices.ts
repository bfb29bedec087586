import type Stripe from 'stripe';
import type { BillingLog } from './billing-service.ts';

/** One of the account's Stripe invoices, as the account page lists it. */
export interface InvoiceLine {
  id: string;
  /** Stripe's invoice number (the customer's prefix and a count), or null while it is a draft. */
  number: string | null;
  issuedAt: number;
  periodStart: number;
  periodEnd: number;
  amountCents: number;
  currency: string;
  status: string;
  /** Stripe's page of the invoice: view it, download it, pay it while it is open. */
  url: string | null;
}

/** How many invoices the account page lists: a year of monthly invoices. */
export const INVOICES_LISTED = 12;

const ms = (seconds: number) => seconds * 1000;

/**
 * The invoices Stripe keeps of a customer, read on each view of the account page: Stripe is the
 * record, so nothing is copied into the service's database to go stale.
 */
export class AccountInvoices {
  constructor(
    private readonly stripe: Stripe,
    private readonly log: BillingLog,
  ) {}

  /**
   * The latest invoices of a Stripe customer, newest first; none for an account that has never
   * bought a plan. Stripe being unreachable must not take the account page down: 'unavailable'.
   */
  async latest(customerId: string | null): Promise<InvoiceLine[] | 'unavailable'> {
    if (!customerId) return [];
    try {
      const page = await this.stripe.invoices.list({ customer: customerId, limit: INVOICES_LISTED });
      return page.data.map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number ?? null,
        issuedAt: ms(invoice.created),
        periodStart: ms(invoice.period_start),
        periodEnd: ms(invoice.period_end),
        amountCents: invoice.amount_due,
        currency: invoice.currency,
        status: invoice.status ?? 'draft',
        url: invoice.hosted_invoice_url ?? null,
      }));
    } catch (error) {
      this.log.warn({ err: error, customerId }, 'listing a customer’s Stripe invoices failed');
      return 'unavailable';
    }
  }
}
