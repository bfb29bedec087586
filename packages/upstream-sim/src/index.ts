export * from './churn/index.ts';
export * from './czds/index.ts';
export * from './majestic/index.ts';
export * from './moz/index.ts';
export * from './rdap/index.ts';
export * from './server.ts';
export * from './wayback/index.ts';
export * from './world.ts';
