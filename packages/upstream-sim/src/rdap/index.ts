export { NO_FAULTS, type RdapFaults } from './faults.ts';
export { RdapSimControl, rdapSimPlugin } from './plugin.ts';
export { SIM_REGISTRIES, type SimRdapServerId, type SimRegistryId } from './registries.ts';
