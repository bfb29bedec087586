import type { SimWorld } from '../world.ts';

/** What the web knows about a name: it outlives the registration (a purged name keeps its archive). */
export interface WebFacts {
  firstArchivedAt?: number | undefined;
  da?: number | undefined;
  tf?: number | undefined;
  cf?: number | undefined;
}

const remembered = new WeakMap<SimWorld, Map<string, WebFacts>>();

function memory(world: SimWorld): Map<string, WebFacts> {
  let facts = remembered.get(world);
  if (!facts) {
    facts = new Map();
    remembered.set(world, facts);
  }
  return facts;
}

/** Keeps a name's web facts before the registry forgets it (call before `world.purge`). */
export function rememberWebFacts(world: SimWorld, name: string): void {
  const domain = world.get(name);
  if (!domain) return;
  memory(world).set(name, { firstArchivedAt: domain.firstArchivedAt, da: domain.da, tf: domain.tf, cf: domain.cf });
}

/** The archive and SEO simulators' view of a name: the live registration, else what was remembered. */
export function webFacts(world: SimWorld, name: string): WebFacts | undefined {
  return world.get(name) ?? memory(world).get(name);
}
