export * from './drop-plan.ts';
export * from './lifecycle-service.ts';
export * from './rdap-evidence.ts';
export * from './rdap-recheck.ts';
export * from './recheck-schedule.ts';
export * from './states.ts';
export * from './transitions.ts';
export * from './zone-evidence.ts';
