import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const here = path.dirname(fileURLToPath(import.meta.url));
const assetsDir = path.join(here, '..', '..', 'assets');
// chart.js exports only its ESM/CJS entry points; the browser build sits beside them in dist/.
const chartJsDir = path.dirname(createRequire(import.meta.url).resolve('chart.js'));

const ASSETS: Record<string, { file: string; type: string }> = {
  'chart.umd.min.js': { file: path.join(chartJsDir, 'chart.umd.min.js'), type: 'text/javascript; charset=utf-8' },
  'dashboard.js': { file: path.join(assetsDir, 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
  'dashboard.css': { file: path.join(assetsDir, 'dashboard.css'), type: 'text/css; charset=utf-8' },
};

/** Chart.js (from node_modules), the dashboard's script and stylesheet, read once at start. */
export function assetRoutes(app: FastifyInstance): void {
  const contents = new Map(Object.entries(ASSETS).map(([name, asset]) => [name, readFileSync(asset.file)]));
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`/dashboard/assets/${name}`, async (_request, reply) =>
      reply.type(asset.type).header('Cache-Control', 'public, max-age=3600').send(contents.get(name)),
    );
  }
}
