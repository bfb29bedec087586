import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Clock } from '@repo/server-kit';
import type { Command } from 'commander';
import type { Config } from '../config.ts';
import { createWhoisTransport } from '../registry/engine.ts';
import { IANA_SOURCES, refreshRootZone } from '../tlds/refresh.ts';
import { ROOT_ZONE_FILE, readRootZone } from '../tlds/tld-data.ts';

export interface TldsCliOutput {
  stdout: Writable;
  stderr: Writable;
}

/** `domain-intel tlds …`: the built-in root-zone table (every TLD, its type and WHOIS server). */
export function registerTldsCommands(
  program: Command,
  getSettings: () => { config: Config; clock: Clock },
  output: TldsCliOutput = { stdout: process.stdout, stderr: process.stderr },
): void {
  const tlds = program.command('tlds').description("The root-zone table: IANA's TLDs, their types and WHOIS servers");

  tlds
    .command('refresh')
    .description(
      "Read IANA's TLD list, root-zone database and whois.iana.org afresh and write the root-zone table " +
        '(where IANA is reachable; WHOIS_HOST_RATES paces whois.iana.org:43)',
    )
    .option('--out <file>', 'where to write the table (default: the built-in one)', ROOT_ZONE_FILE)
    .option('--list-url <url>', "IANA's TLD list", IANA_SOURCES.listUrl)
    .option('--root-db-url <url>', "IANA's root-zone database index", IANA_SOURCES.rootDbUrl)
    .option(
      '--whois-server <host:port>',
      "IANA's WHOIS server",
      `${IANA_SOURCES.whois.host}:${IANA_SOURCES.whois.port}`,
    )
    .action(async (options: { out: string; listUrl: string; rootDbUrl: string; whoisServer: string }) => {
      const { config, clock } = getSettings();
      const [host = '', port = '43'] = options.whoisServer.split(':');
      const { transport } = createWhoisTransport(config, clock, (error) =>
        output.stderr.write(`${(error as Error).message}\n`),
      );
      try {
        const table = await refreshRootZone(
          { listUrl: options.listUrl, rootDbUrl: options.rootDbUrl, whois: { host, port: Number(port) } },
          transport,
          {
            now: new Date(clock.now()),
            deadlinePerQueryMs: config.WHOIS_ANSWER_TIMEOUT_MS * 4,
            onProgress: ({ done, total }) => {
              if (done % 100 === 0 || done === total) output.stderr.write(`${done}/${total} TLDs asked\n`);
            },
          },
        );
        const out = path.resolve(options.out);
        const partial = `${out}.partial`;
        writeFileSync(partial, `${JSON.stringify(table, null, 2)}\n`);
        // The written table must load as the service loads it before it replaces the old one.
        const checked = readRootZone(partial);
        renameSync(partial, out);
        const withWhois = checked.entries.filter((entry) => entry.whois).length;
        output.stdout.write(
          `${out}: ${checked.entries.length} TLDs (list ${checked.published.version}), ${withWhois} with a WHOIS server\n`,
        );
      } finally {
        await transport.close();
      }
    });
}
