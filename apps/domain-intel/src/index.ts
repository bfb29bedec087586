export { type BuildOptions, buildApp } from './app.ts';
export { type Config, loadDomainIntelConfig } from './config.ts';
export { type AppContext, createContext } from './context.ts';
