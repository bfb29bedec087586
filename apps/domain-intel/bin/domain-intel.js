#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx domain-intel …` works right after `npm ci`
// with no build step.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

register();
registerHooks(new URL('./kysely-commonjs.mjs', import.meta.url));
await import('../src/cli.ts');
