export * from './server.ts';
export * from './world.ts';
