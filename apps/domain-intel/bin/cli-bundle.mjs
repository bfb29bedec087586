// The CLI's bundle (`npm run build`): the TypeScript sources of the `domain-intel` command and of the
// workspace packages they import, bundled by esbuild into dist/ as plain ES modules (packages from
// node_modules stay imports). Run from there, a command starts without tsx: no loader thread that
// loads tsx and esbuild, no round trip to it per module, and the sort and feed-build worker threads
// load a bundle of their own instead of registering tsx again (~0.7 s of a command's ~1 s of start-up
// CPU, see the zone-import rows of docs/benchmarks.md). bin/domain-intel.js runs the bundle only while it is
// current: every source it was built from still has the size and modification time it had then;
// otherwise (no build, a source edited or checked out since) it runs the sources through tsx.
//
// The bundle is built with the esbuild that tsx runs on (no dependency of its own), so it compiles
// each source exactly as tsx does.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const appDir = fileURLToPath(new URL('..', import.meta.url));
export const CLI_BUNDLE_DIR = path.join(appDir, 'dist');
/** Every bundled source (relative to the app's directory) with its size and modification time at build. */
const INPUTS = 'inputs.json';

/**
 * The worker threads' entries, bundled as entry points of their own. In the sources each client
 * starts its worker as `new URL('./<name>.js', import.meta.url)`, the entry that registers tsx; in
 * the bundle that URL names the worker's bundle, `<name>.js` beside the CLI's.
 */
const WORKERS = {
  'sort-worker-entry': 'src/zones/sort-worker.ts',
  'feed-build-worker-entry': '../../packages/feed-index/src/feed-build-worker.ts',
};
const workerEntryFiles = new Map(
  Object.entries(WORKERS).map(([name, source]) => [path.join(appDir, path.dirname(source), `${name}.js`), name]),
);

/** The bundle's CLI module when `dir` holds a bundle of the sources as they are now; otherwise null. */
export function currentCliBundle(dir = CLI_BUNDLE_DIR) {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(path.join(dir, INPUTS), 'utf8'));
  } catch {
    return null;
  }
  for (const [file, [size, mtimeMs]] of Object.entries(inputs)) {
    let stat;
    try {
      stat = statSync(path.join(appDir, file));
    } catch {
      return null;
    }
    if (stat.size !== size || stat.mtimeMs !== mtimeMs) return null;
  }
  return pathToFileURL(path.join(dir, 'cli.js'));
}

/** Bundles the CLI and its workers into `dir` (replacing what it held) and records the sources it read. */
export async function buildCliBundle(dir = CLI_BUNDLE_DIR) {
  const require = createRequire(import.meta.url);
  const esbuild = await import(pathToFileURL(createRequire(require.resolve('tsx/package.json')).resolve('esbuild')));
  rmSync(dir, { recursive: true, force: true });
  const { metafile } = await esbuild.build({
    absWorkingDir: appDir,
    entryPoints: { cli: 'src/cli.ts', ...WORKERS },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [packagesStayImports, sourceLocations(dir)],
  });
  const inputs = {};
  for (const input of Object.keys(metafile.inputs)) {
    // A bundled package stands for its files by its package.json (an install rewrites it): fewer files to check.
    const inPackage = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+\/)/.exec(input);
    const file = inPackage ? `${inPackage[1]}package.json` : input;
    const { size, mtimeMs } = statSync(path.join(appDir, file));
    inputs[file] = [size, mtimeMs];
  }
  writeFileSync(path.join(dir, INPUTS), `${JSON.stringify(inputs, null, 1)}\n`);
}

/**
 * Packages bundled: the workspace's own (TypeScript), and kysely and zod, plain ES modules that are
 * loaded as ~260 and ~95 files (one file each is faster to load; nothing in node_modules imports
 * them, so there is one copy). Every other package is imported at run time from node_modules, as under tsx.
 */
const BUNDLED = /^(@repo\/|domain-intel\/|kysely$|kysely\/|zod$|zod\/)/;

/** Packages from node_modules stay imports, but for BUNDLED. */
const packagesStayImports = {
  name: 'packages-stay-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path: specifier }) =>
      BUNDLED.test(specifier) ? undefined : { external: true },
    );
  },
};

/**
 * `import.meta.url` in a bundled source means that source's own location, as under tsx (pages,
 * assets and package.json are read relative to it), except in the URL of a worker's entry, which
 * names the worker's bundle (WORKERS).
 */
function sourceLocations(dir) {
  const relativeUrl = (file) => {
    const relative = path.relative(dir, file).split(path.sep).join('/');
    return JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`);
  };
  return {
    name: 'source-locations',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path: file }) => {
        if (file.split(path.sep).includes('node_modules')) return undefined;
        const text = readFileSync(file, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        if (/import\.meta\.(dirname|filename|resolve)/.test(text)) {
          throw new Error(`${file}: only import.meta.url is carried into the bundle`);
        }
        // A worker's URL is set aside (NUL cannot occur in a source), then every other import.meta.url replaced.
        const contents = text
          .replace(/new URL\((['"])(\.{1,2}\/[^'"]+)\1, import\.meta\.url\)/g, (whole, _quote, target) => {
            const worker = workerEntryFiles.get(path.resolve(path.dirname(file), target));
            return worker ? `new URL('./${worker}.js', \0)` : whole;
          })
          .replaceAll('import.meta.url', `new URL(${relativeUrl(file)}, import.meta.url).href`)
          .replaceAll('\0', 'import.meta.url');
        return { contents, loader: path.extname(file).slice(1).replace(/^[cm]/, ''), resolveDir: path.dirname(file) };
      });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildCliBundle(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
