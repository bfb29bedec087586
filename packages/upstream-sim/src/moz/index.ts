export * from './plugin.ts';
