export * from './deletion-churn.ts';
export * from './random.ts';
export * from './web-facts.ts';
export * from './zone-churn.ts';
