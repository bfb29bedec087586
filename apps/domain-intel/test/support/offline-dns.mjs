// Preload for the corpus HTTP test's child process: real RDAP answers link to real registrar
// hosts, which a test must never reach. Every name but localhost fails to resolve, at once.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

const local = new Set(['localhost', '127.0.0.1', '::1']);
const original = dns.lookup;
dns.lookup = (hostname, options, callback) => {
  const done = typeof options === 'function' ? options : callback;
  if (local.has(hostname)) return original(hostname, options, callback);
  const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (offline test)`), {
    code: 'ENOTFOUND',
    hostname,
  });
  process.nextTick(() => done(error));
};
syncBuiltinESMExports();
