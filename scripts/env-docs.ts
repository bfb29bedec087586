/**
 * The configuration reference of every service, rendered from the config schemas themselves:
 * names and defaults from zod (what the code really does), meanings from the comment above
 * each variable. `npm run env-docs` prints the tables of docs/reference/configuration.md; a
 * test (scripts/test/readme-env.test.ts) checks that the page names every variable.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseEnvSchema } from '@repo/server-kit';
import { envSchema as domainIntelSchema } from 'domain-intel/src/config.ts';
import { sampleAppEnvSchema } from 'sample-app/src/config.ts';
import { envSchema as platformSchema } from 'social-platform/src/config.ts';
import type { z } from 'zod';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ServiceConfig {
  title: string;
  file: string;
  schema: z.ZodObject;
  /** Variables shown in the shared table instead. */
  skipShared: boolean;
}

export const SERVICES: ServiceConfig[] = [
  { title: 'Both services', file: 'packages/server-kit/src/config.ts', schema: baseEnvSchema, skipShared: false },
  {
    title: 'Domain Intelligence API',
    file: 'apps/domain-intel/src/config.ts',
    schema: domainIntelSchema,
    skipShared: true,
  },
  { title: 'Social platform', file: 'apps/social-platform/src/config.ts', schema: platformSchema, skipShared: true },
  { title: 'Sample app', file: 'apps/sample-app/src/config.ts', schema: sampleAppEnvSchema, skipShared: false },
];

export interface EnvVariable {
  name: string;
  defaultValue: string;
  meaning: string;
}

/** The comment block right above `  NAME:` in a config file, as one line of text. */
function comments(file: string): Map<string, string> {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const found = new Map<string, string>();
  let block: string[] = [];
  let inBlock = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('/**')) {
      inBlock = true;
      block = [];
    }
    if (inBlock) {
      block.push(trimmed.replace(/^\/\*\*|\*\/$|^\*\/?/g, '').trim());
      if (trimmed.endsWith('*/')) inBlock = false;
      continue;
    }
    const key = /^\s*([A-Z][A-Z0-9_]+):/.exec(line)?.[1];
    if (key && block.length > 0) found.set(key, block.filter(Boolean).join(' '));
    if (trimmed !== '' && !trimmed.startsWith('//')) block = [];
  }
  return found;
}

function describeDefault(schema: z.ZodType): string {
  const result = schema.safeParse(undefined);
  if (!result.success || result.data === undefined) return '(unset)';
  const value = result.data;
  if (value === false) return 'off';
  if (value === true) return 'on';
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function variablesOf(service: ServiceConfig): EnvVariable[] {
  const meanings = comments(service.file);
  const shared = new Set(Object.keys(baseEnvSchema.shape));
  return Object.entries(service.schema.shape)
    .filter(([name]) => !(service.skipShared && shared.has(name) && !meanings.has(name)))
    .map(([name, schema]) => ({
      name,
      defaultValue: describeDefault(schema as z.ZodType),
      meaning: meanings.get(name) ?? '',
    }));
}

export function renderMarkdown(): string {
  return SERVICES.map((service) => {
    const rows = variablesOf(service).map(
      ({ name, defaultValue, meaning }) =>
        `| \`${name}\` | ${defaultValue === '' ? '(empty)' : `\`${defaultValue.replaceAll('|', '\\|')}\``} | ${meaning.replaceAll('|', '\\|')} |`,
    );
    return `#### ${service.title}\n\n| Variable | Default | Meaning |\n|---|---|---|\n${rows.join('\n')}\n`;
  }).join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(renderMarkdown());
}
