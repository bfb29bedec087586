import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ChurnDay, SimWorld, ZoneChurn } from '@repo/upstream-sim';
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
  /** Days `npm run demo -- advance` moved the demo on: its present is the real clock this far ahead. */
  advancedDays: number;
}

export interface DemoWorld {
  world: SimWorld;
  churn: ZoneChurn;
  /** True until a replay has finished: the caller replays DEMO_DAYS days, then calls `markReplayed`. */
  needsReplay: boolean;
  markReplayed(): Promise<void>;
  /** The demo's present: the real clock, plus every day the demo was advanced by. */
  now(): number;
  /**
   * Moves the demo's present one day on (kept in demo-world.json, so a restart keeps it) and plays
   * the registries' days up to it; gives what each of those days did (usually one).
   */
  nextDay(): Promise<ChurnDay[]>;
}

/**
 * The demo's simulated registries, the same on every start over the same DATA_DIR: the world's
 * start is kept in DATA_DIR/demo-world.json and the seeded churn is replayed from it, so a restart
 * finds every name in the state the feed saw (and the days since then), never days behind it.
 */
export async function openDemoWorld(dataDir: string, now = Date.now()): Promise<DemoWorld> {
  const file = path.join(dataDir, 'demo-world.json');
  const saved = await readState(file);
  const state: DemoWorldState = saved ?? {
    start: new Date(now - DEMO_DAYS * DAY_MS).toISOString(),
    replayed: false,
    advancedDays: 0,
  };
  if (!saved) await writeState(file, state);
  // `now` other than the real clock (a test's) keeps its distance from it as time goes on.
  const skew = now - Date.now();
  const present = () => Date.now() + skew + state.advancedDays * DAY_MS;

  const world = new SimWorld(state.start);
  const churn = new ZoneChurn(world, { seed: SEED, ...DEMO_CHURN_OPTIONS });
  churn.seed();
  for (const name of WELL_KNOWN) world.register(name, { createdAt: Date.parse('1995-08-14T04:00:00Z') });
  for (const name of ACROSS_TLDS) world.register(name);
  // JPRS answers EXAMPLE.JP with its own "Reserved" record (a real answer the simulated server copies).
  world.reserved.set('jp', new Set(['example.jp']));

  // The churn is deterministic: the same days from the same start give the same registries.
  const catchUp = () => {
    const days: ChurnDay[] = [];
    while (world.now() + DAY_MS <= present()) days.push(churn.advanceDay());
    return days;
  };
  if (state.replayed) catchUp();
  return {
    world,
    churn,
    needsReplay: !state.replayed,
    markReplayed: async () => {
      state.replayed = true;
      await writeState(file, state);
    },
    now: present,
    nextDay: async () => {
      state.advancedDays += 1;
      await writeState(file, state);
      return catchUp();
    },
  };
}

async function readState(file: string): Promise<DemoWorldState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<DemoWorldState>;
    if (typeof parsed.start !== 'string' || Number.isNaN(Date.parse(parsed.start))) return undefined;
    const advancedDays = Number.isSafeInteger(parsed.advancedDays) ? Math.max(0, parsed.advancedDays as number) : 0;
    return { start: parsed.start, replayed: parsed.replayed === true, advancedDays };
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
