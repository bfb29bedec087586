import { ManualClock } from '@repo/server-kit';
import { type UpstreamSim } from '@repo/upstream-sim';
import { type Config } from '../src/config.ts';
import { type RdapEngine } from '../src/rdap/engine.ts';
/** Environment that points the service at a running simulator's RDAP servers. */
export declare function simRdapEnv(sim: UpstreamSim, extra?: Record<string, string>): Record<string, string>;
export interface EngineUnderTest {
  sim: UpstreamSim;
  engine: RdapEngine;
  config: Config;
  clock: ManualClock;
  errors: unknown[];
  close(): Promise<void>;
}
/** A simulator with a few names, and an RDAP engine pointed at it. */
export declare function startEngine(env?: Record<string, string>, sim?: UpstreamSim): Promise<EngineUnderTest>;
