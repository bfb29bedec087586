export {
  PAYMENT_ATTEMPTS,
  SIM_STRIPE_API_VERSION,
  SIM_STRIPE_PRICES,
  StripeSimControl,
  StripeSimError,
  type StripeSimOptions,
  type StripeSimState,
} from './control.ts';
export type * from './objects.ts';
export { stripeSimPlugin } from './plugin.ts';
export {
  type DeliveryBehaviour,
  type DeliveryRecord,
  stripeSignatureHeader,
  type WebhookEndpoint,
} from './webhook-delivery.ts';
