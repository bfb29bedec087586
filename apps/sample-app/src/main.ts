import { ConfigError } from './config.ts';
import { startSampleApp } from './start.ts';

/** `npm start -w sample-app`: runs the app from the environment (its README.md lists the variables). */
try {
  const running = await startSampleApp();
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`Sample app listening on ${running.url} (canvas URL)`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
