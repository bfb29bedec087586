export * from './databases.ts';
