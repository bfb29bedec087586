export * from './address-guard.ts';
export * from './retry-schedule.ts';
export * from './target-host.ts';
export * from './webhook-sender.ts';
