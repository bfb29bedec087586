export * from './random.ts';
export * from './web-facts.ts';
export * from './zone-churn.ts';
