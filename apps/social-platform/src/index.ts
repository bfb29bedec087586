export { type BuildOptions, buildApp } from './app.ts';
export { type Config, loadPlatformConfig } from './config.ts';
export { type AppContext, createContext } from './context.ts';
