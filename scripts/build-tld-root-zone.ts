/**
 * Builds apps/domain-intel/src/tlds/data/root-zone.json from a clone of case/iana-data, a public
 * repository that keeps nightly copies of IANA's TLD list, the root-zone database index and every
 * TLD's delegation page. The service cannot reach IANA from where it is built, and IANA publishes
 * types and WHOIS servers only as HTML, so the table is derived from those copies and each part
 * names the commit it came from.
 *
 *   npx tsx scripts/build-tld-root-zone.ts <git dir of case/iana-data> [commit]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseRootDbIndex, parseRootDbPageWhois } from 'domain-intel/src/tlds/iana-root-db.ts';
import { parseTldList, ROOT_ZONE_FILE } from 'domain-intel/src/tlds/tld-data.ts';

const REPOSITORY = 'case/iana-data';
const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) {
  console.error('usage: tsx scripts/build-tld-root-zone.ts <git dir of case/iana-data> [commit]');
  process.exit(2);
}

const git = (...args: string[]) => execFileSync('git', ['-C', gitDir, ...args], { maxBuffer: 64 << 20 }).toString();
const show = (path: string) => git('show', `${commit}:${path}`);
const lastChange = (path: string) => {
  const [hash, date] = git('log', '-1', '--format=%H %cs', commit, '--', path).trim().split(' ');
  return { commit: hash!, commit_date: date! };
};
const pagePath = (tld: string) => `data/source/tld-pages/${tld.startsWith('xn--') ? 'idn' : tld[0]}/${tld}.html`;

const list = parseTldList(show('data/source/iana-tlds.txt'));
const types = parseRootDbIndex(show('data/source/iana-root.html'));
const snapshot = lastChange('data/source/tld-pages');

const tlds = list.tlds.map((tld) => {
  const type = types.get(tld);
  if (!type) throw new Error(`.${tld} is in the TLD list but not in the root-zone database index`);
  return { tld, type, whois: parseRootDbPageWhois(show(pagePath(tld))) };
});

const table = {
  source: [
    'https://data.iana.org/TLD/tlds-alpha-by-domain.txt',
    'https://www.iana.org/domains/root/db',
    'https://www.iana.org/domains/root/db/<tld>.html',
  ],
  published: { version: list.version, last_updated: list.lastUpdated },
  retrieved: snapshot.commit_date,
  collected_from: [
    {
      part: 'TLD list',
      repository: REPOSITORY,
      path: 'data/source/iana-tlds.txt',
      ...lastChange('data/source/iana-tlds.txt'),
    },
    {
      part: 'type',
      repository: REPOSITORY,
      path: 'data/source/iana-root.html',
      ...lastChange('data/source/iana-root.html'),
    },
    {
      part: 'whois',
      repository: REPOSITORY,
      path: 'data/source/tld-pages/<first letter, or idn>/<tld>.html',
      ...snapshot,
    },
  ],
  note:
    'Every field is IANA\'s: the TLD list, the type column of the root-zone database index and the "WHOIS Server" ' +
    "line of each TLD's delegation page (whois.iana.org's whois: line carries the same field). whois is null where " +
    'IANA names no server: many gTLDs dropped port 43 after ICANN ended the WHOIS obligation in January 2025 and ' +
    "answer over RDAP only. Checked against whois.iana.org's own answers of 2023-2024 (whois/ianawhois, 1,436 TLDs " +
    'in both): 953 agree; 408 servers IANA has removed since, 24 added and 51 renamed (e.g. .co whois.nic.co -> ' +
    'whois.registry.co, .in whois.registry.in -> whois.nixiregistry.in) differ, and this table keeps the newer ' +
    "delegation pages' value. Lists kept by WHOIS clients (rfc1036/whois tld_serv_list and others) also differ for " +
    "some TLDs (.org, .uk, .es); this table keeps IANA's value.",
  tlds,
};

writeFileSync(ROOT_ZONE_FILE, `${JSON.stringify(table, null, 2)}\n`);
console.log(
  `${ROOT_ZONE_FILE}: ${tlds.length} TLDs (list ${list.version}), ${tlds.filter((t) => t.whois).length} with a WHOIS server`,
);
