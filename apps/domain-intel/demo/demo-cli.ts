/**
 * `npm run demo -- <command>`: talks to the demo `npm start` runs (found through
 * DATA_DIR/demo-control.json, DATA_DIR as npm start reads it).
 *
 *   advance [--days N]   move the simulated world N days on (default 1), a day at a time
 *   inbox                the webhooks the demo's inbox received
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AdvancedDay } from './demo-advance.ts';
import { controlFile, type InboxEntry } from './demo-control.ts';

const USAGE = `Usage: npm run demo -- advance [--days N]   move the running demo N days on (default 1)
       npm run demo -- inbox                 the webhooks the demo's inbox received`;

const fail = (message: string): never => {
  process.stderr.write(`npm run demo: ${message}\n`);
  process.exit(1);
};

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { days: { type: 'string', default: '1' }, help: { type: 'boolean', short: 'h' } },
});
const [command] = positionals;
if (values.help || !command) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 1);
}
if (command !== 'advance' && command !== 'inbox') fail(`unknown command ${command}\n${USAGE}`);

const dataDir = path.resolve(process.env.DATA_DIR || './data');
const control = await readFile(controlFile(dataDir), 'utf8').then(
  (text) => JSON.parse(text) as { url: string },
  () => fail(`no running demo on ${dataDir} (start it with npm start; DATA_DIR must be the same)`),
);

async function call(method: 'GET' | 'POST', route: string, body?: object) {
  const response = await fetch(`${control.url}${route}`, {
    method,
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  }).catch(() => fail(`the demo at ${control.url} does not answer (is npm start still running?)`));
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) fail(String(answer.error ?? response.status));
  return answer;
}

const list = (names: string[], most = 8) =>
  names.length <= most ? names.join(', ') : `${names.slice(0, most).join(', ')} and ${names.length - most} more`;

if (command === 'advance') {
  const days = Number(values.days);
  const answer = (await call('POST', '/advance', { days })) as {
    now: string;
    days: AdvancedDay[];
    about_to_drop: string[];
  };
  for (const day of answer.days) {
    const parts = [
      `zones ${day.zone.removed} left, ${day.zone.added} joined`,
      `RDAP ${day.rdap.checked} re-checked, ${day.rdap.dropped} dropped`,
      `watchlist ${day.watchlist.transitions} moves`,
      `deliveries ${day.deliveries.matched} rows matched, ${day.deliveries.delivered} sent`,
    ];
    if (day.subscriptions.length > 0) {
      parts.push(`Stripe ${day.subscriptions.map((sub) => `${sub.id} ${sub.status}`).join(', ')}`);
    }
    process.stdout.write(`${day.date}  ${parts.join(' · ')}\n`);
    if (day.purged.length > 0) process.stdout.write(`            purged by the registries: ${list(day.purged)}\n`);
  }
  process.stdout.write(`\nThe demo's time is now ${answer.now}.\n`);
  if (answer.about_to_drop.length > 0) {
    process.stdout.write(`Drop on the next day (pending delete now; watch one): ${list(answer.about_to_drop)}\n`);
  }
} else {
  const { received } = (await call('GET', '/inbox')) as { received: InboxEntry[] };
  if (received.length === 0) process.stdout.write('Nothing received yet.\n');
  for (const entry of received) {
    process.stdout.write(`${entry.received_at}  ${entry.type ?? '(no type)'}  ${JSON.stringify(entry.body)}\n`);
  }
}
