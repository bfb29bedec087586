#!/usr/bin/env node
// Runs the CLI: its bundle (dist/, `npm run build`) while that is current with the sources, else the
// TypeScript sources through tsx, so `npx domain-intel …` works right after `npm ci` with no build
// step (bin/cli-bundle.mjs).
import { currentCliBundle } from './cli-bundle.mjs';

const bundle = currentCliBundle();
if (bundle) {
  await import(bundle.href);
} else {
  const { register: registerHooks } = await import('node:module');
  const { register } = await import('tsx/esm/api');
  register();
  registerHooks(new URL('./kysely-commonjs.mjs', import.meta.url));
  await import('../src/cli.ts');
}
