export { NO_FAULTS, type RdapFaults } from './faults.ts';
export { RdapSimControl, rdapSimPlugin } from './plugin.ts';
export { SIM_REGISTRIES, SIM_REGISTRY_IDS, type SimRdapServerId, type SimRegistryId } from './registries.ts';
