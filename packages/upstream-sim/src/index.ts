export * from './rdap/index.ts';
export * from './czds/index.ts';
export * from './server.ts';
export * from './world.ts';
