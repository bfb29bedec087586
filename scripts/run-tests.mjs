#!/usr/bin/env node
// Runs every *.test.ts under apps/ and packages/ with node's test runner through tsx.
// Node 20 has no glob support in `--test`, so the files are found here.
// Usage: npm test [-- <path filter> ...]
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const roots = ['apps', 'packages', 'scripts'];
const filters = process.argv.slice(2);
const files = roots
  .flatMap((root) => readdirSync(root, { recursive: true, withFileTypes: true }).map((entry) => entry))
  .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
  .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
  .filter((file) => !file.split(path.sep).includes('node_modules'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
