export {
  PAYMENT_ATTEMPTS,
  SIM_STRIPE_API_VERSION,
  StripeSimControl,
  StripeSimError,
  type StripeSimOptions,
} from './control.ts';
export type * from './objects.ts';
export { stripeSimPlugin } from './plugin.ts';
export {
  type DeliveryBehaviour,
  type DeliveryRecord,
  stripeSignatureHeader,
  type WebhookEndpoint,
} from './webhook-delivery.ts';
