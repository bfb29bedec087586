export { type BuildSampleAppOptions, buildSampleApp, type SampleAppContext } from './app.ts';
export { ConfigError, loadSampleAppConfig, type SampleAppConfig, sampleAppEnvSchema } from './config.ts';
export { PlatformApiError, PlatformClient } from './platform-client.ts';
export { type RunningSampleApp, type StartSampleAppOptions, startSampleApp } from './start.ts';
