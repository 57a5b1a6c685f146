// The public face of pricing: pages import from here only.
export { PlanCards } from './plan-cards';
export { PricingTable } from './pricing-table';
