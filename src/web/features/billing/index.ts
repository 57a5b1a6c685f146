// The public face of billing: pages and other features import from here only.
export {
  BILLING_KEY,
  billingPricesQuery,
  billingQuery,
  formatDay,
  formatPrice,
  useBilling,
  useBillingPrices,
  useCheckout,
} from './billing-api';
export { BillingCard } from './billing-card';
export { CheckoutReturn } from './checkout-return';
export { PaymentBanner } from './payment-banner';
