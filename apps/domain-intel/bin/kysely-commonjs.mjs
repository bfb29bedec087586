// Module hooks for bin/domain-intel.js: `kysely` resolves to its CommonJS build. Its ES build is
// ~260 modules, and with tsx's loader every module is resolved and loaded by a round trip to the
// loader's thread, about a fifth of a CLI command's start-up CPU (~0.2 s of a zone import's ~1.2 s);
// the CommonJS build is the same code, read by `require` without those round trips. Every import
// of `kysely` goes through here, so one copy of it is loaded.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const commonJsBuild = pathToFileURL(createRequire(import.meta.url).resolve('kysely')).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'kysely') return { url: commonJsBuild, format: 'commonjs', shortCircuit: true };
  return nextResolve(specifier, context);
}
