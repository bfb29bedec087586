/** Every response record of the Domain Intelligence API, one file per area. */
export * from './availability.ts';
export * from './brand.ts';
export * from './bulk-checks.ts';
export * from './envelope.ts';
export * from './events.ts';
export * from './feed.ts';
export * from './feed-query.ts';
export * from './management.ts';
export * from './quota.ts';
export * from './signup.ts';
export * from './snapshots.ts';
export * from './suggest.ts';
export * from './tlds.ts';
export * from './whois.ts';
