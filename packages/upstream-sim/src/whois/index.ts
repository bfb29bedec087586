export { WhoisSimControl } from './control.ts';
export { NO_WHOIS_FAULTS, type WhoisFaults } from './faults.ts';
export { whoisSimPlugin } from './plugin.ts';
export { SIM_WHOIS_REGISTRIES, type SimWhoisServerId } from './registries.ts';
export { SimWhoisServers } from './servers.ts';
