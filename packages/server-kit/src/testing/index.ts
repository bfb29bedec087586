export * from './databases.ts';
export * from './openapi-coverage.ts';
export * from './raw-exchange.ts';
