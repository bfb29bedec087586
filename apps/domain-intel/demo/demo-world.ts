import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SimWorld, ZoneChurn } from '@repo/upstream-sim';
import { DEMO_CHURN_OPTIONS } from './demo-pipeline.ts';

const DAY_MS = 86_400_000;
/** How many simulated days the first start replays through the pipeline. */
export const DEMO_DAYS = 5;
const SEED = 2026;
/** Names everyone tries first; they answer "registered", as they would in the real world. */
const WELL_KNOWN = ['example.com', 'example.net', 'example.org', 'google.com', 'wikipedia.org', 'github.com'];
/**
 * Names under the TLDs reached through RDAP servers IANA's file lacks (io, co, de, ch, me, us, dk) and
 * through port-43 WHOIS (jp, it, es, eu, se, nz, …), so a check across them shows registered names
 * beside free ones (any other name there is free): `/v1/check?domains=startup.io,brand.co,firma.de`.
 */
const ACROSS_TLDS = [
  'startup.io',
  'brand.co',
  'firma.de',
  'uhren.ch',
  'about.me',
  'launch.app',
  'studio.ai',
  'bistro.fr',
  'startup.us',
  'hygge.dk',
  'sushi.jp',
  'moda.it',
  'tienda.es',
  'brand.eu',
  'kaffe.se',
  'kiwi.nz',
  'kaffeehaus.at',
  'frites.be',
  'matryoshka.ru',
  'chaye.cn',
  'outback.au',
  'island.gg',
  'dhow.so',
];

interface DemoWorldState {
  /** When the simulated world began (the first start, DEMO_DAYS earlier). */
  start: string;
  /** The first start's replay finished: later starts only bring the world up to today. */
  replayed: boolean;
}

export interface DemoWorld {
  world: SimWorld;
  churn: ZoneChurn;
  /** True until a replay has finished: the caller replays DEMO_DAYS days, then calls `markReplayed`. */
  needsReplay: boolean;
  markReplayed(): Promise<void>;
}

/**
 * The demo's simulated registries, the same on every start over the same DATA_DIR: the world's
 * start is kept in DATA_DIR/demo-world.json and the seeded churn is replayed from it, so a restart
 * finds every name in the state the feed saw (and the days since then), never days behind it.
 */
export async function openDemoWorld(dataDir: string, now = Date.now()): Promise<DemoWorld> {
  const file = path.join(dataDir, 'demo-world.json');
  const saved = await readState(file);
  const state: DemoWorldState = saved ?? { start: new Date(now - DEMO_DAYS * DAY_MS).toISOString(), replayed: false };
  if (!saved) await writeState(file, state);

  const world = new SimWorld(state.start);
  const churn = new ZoneChurn(world, { seed: SEED, ...DEMO_CHURN_OPTIONS });
  churn.seed();
  for (const name of WELL_KNOWN) world.register(name, { createdAt: Date.parse('1995-08-14T04:00:00Z') });
  for (const name of ACROSS_TLDS) world.register(name);
  // JPRS answers EXAMPLE.JP with its own "Reserved" record (a real answer the simulated server copies).
  world.reserved.set('jp', new Set(['example.jp']));

  if (state.replayed) {
    // The churn is deterministic: the same days from the same start give the same registries.
    while (world.now() + DAY_MS <= now) churn.advanceDay();
  }
  return {
    world,
    churn,
    needsReplay: !state.replayed,
    markReplayed: () => writeState(file, { ...state, replayed: true }),
  };
}

async function readState(file: string): Promise<DemoWorldState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<DemoWorldState>;
    if (typeof parsed.start !== 'string' || Number.isNaN(Date.parse(parsed.start))) return undefined;
    return { start: parsed.start, replayed: parsed.replayed === true };
  } catch {
    return undefined;
  }
}

async function writeState(file: string, state: DemoWorldState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, file);
}
