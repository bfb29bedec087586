export * from './databases.ts';
export * from './free-port.ts';
export * from './openapi-coverage.ts';
export * from './proc-stat.ts';
export * from './raw-exchange.ts';
export * from './redis-servers.ts';
export * from './redis-targets.ts';
export * from './timeouts.ts';
