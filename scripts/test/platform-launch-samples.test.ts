/**
 * The app guide's launch samples (Node, PHP, Python), run against canvas URLs the platform's own
 * code signs (`canvasFrameUrl`) and against the keys token.php's `sig` is checked over: a sample
 * that drifts from what the platform signs fails here, not in a developer's app. PHP and Python
 * run where installed, skipped with a message otherwise. The guide's worked example is checked
 * against the definition written out here with node:crypto.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { canvasFrameUrl } from '../../apps/social-platform/src/web/canvas-url.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const guide = readFileSync(path.join(root, 'docs/guides/platform-apps.md'), 'utf8');
const fences = new MarkdownIt().parse(guide, {}).filter((token) => token.type === 'fence');

/** The one fenced block of the guide with this info string. */
function sample(info: string): string {
  const blocks = fences.filter((token) => token.info.trim() === info);
  assert.equal(blocks.length, 1, `the guide has one \`${info}\` block`);
  return blocks[0]!.content;
}

const SECRET = 'sps_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const KEY = 'spk_Jx4Q0n3u8c2b4Rk1bq9L7e5VZs1f3Xx0Yh6Wm2PnA4E';
const NOW = 1_773_144_000;

interface Case {
  name: string;
  secret: string;
  /** The canvas URL's query string. */
  query: string;
  now: number;
  valid: boolean;
}

/** Launches as the platform signs them, and the ways a forged or stale one differs. */
function cases(): Case[] {
  const launch = (ts: number, extra = '') =>
    canvasFrameUrl({
      canvasUrl: `https://app.example/play${extra}`,
      key: KEY,
      appId: 7,
      userId: 42,
      platformOrigin: 'https://platform.example',
      secret: SECRET,
      ts,
    }).search.slice(1);
  const sent = launch(NOW);
  const changed = (name: string, value: string) => {
    const params = new URLSearchParams(sent);
    params.set(name, value);
    return params.toString();
  };
  const without = (name: string) => {
    const params = new URLSearchParams(sent);
    params.delete(name);
    return params.toString();
  };
  return [
    { name: 'as sent', secret: SECRET, query: sent, now: NOW, valid: true },
    {
      name: 'as sent, with the canvas URL’s own query',
      secret: SECRET,
      query: launch(NOW, '?lang=en&x=a%26b'),
      now: NOW,
      valid: true,
    },
    { name: 'opened 299 s later', secret: SECRET, query: sent, now: NOW + 299, valid: true },
    { name: 'opened 301 s later', secret: SECRET, query: sent, now: NOW + 301, valid: false },
    { name: 'another user', secret: SECRET, query: changed('user_id', '43'), now: NOW, valid: false },
    { name: 'another app', secret: SECRET, query: changed('app_id', '8'), now: NOW, valid: false },
    {
      name: 'another origin',
      secret: SECRET,
      query: changed('platform_origin', 'https://evil.example'),
      now: NOW,
      valid: false,
    },
    { name: 'ts moved', secret: SECRET, query: changed('ts', String(NOW + 1)), now: NOW, valid: false },
    { name: 'another secret', secret: `${SECRET.slice(0, -1)}H`, query: sent, now: NOW, valid: false },
    { name: 'no sign', secret: SECRET, query: without('sign'), now: NOW, valid: false },
    { name: 'no user_id', secret: SECRET, query: without('user_id'), now: NOW, valid: false },
    {
      name: 'sign in capitals',
      secret: SECRET,
      query: changed('sign', new URLSearchParams(sent).get('sign')!.toUpperCase()),
      now: NOW,
      valid: false,
    },
  ];
}

const work = mkdtempSync(path.join(tmpdir(), 'launch-samples-'));
after(() => rmSync(work, { recursive: true, force: true }));

function has(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs a harness that reads the cases as JSON on stdin and prints one line per case: the sig, then true/false. */
function answers(command: string, args: string[], options: { cwd?: string } = {}) {
  const output = execFileSync(command, args, { input: JSON.stringify(cases()), encoding: 'utf8', ...options });
  return output.trim().split('\n');
}

/** The sig of KEY and each case's verdict, as node:crypto and the cases say they must be. */
function expected(): string[] {
  return [createHmac('sha256', SECRET).update(KEY).digest('hex'), ...cases().map((c) => String(c.valid))];
}

describe('the app guide’s launch samples verify what the platform signs', () => {
  it('the worked example: the signed text and its sign, as the definition gives them', () => {
    const text = sample('text launch-example').trim();
    const params = new URLSearchParams(
      canvasFrameUrl({
        canvasUrl: 'https://app.example/',
        key: KEY,
        appId: 7,
        userId: 42,
        platformOrigin: 'https://platform.example',
        secret: SECRET,
        ts: NOW,
      }).search,
    );
    assert.equal(text, `app_id=7&key=${KEY}&platform_origin=https://platform.example&ts=${NOW}&user_id=42`);
    assert.ok(guide.includes(`app secret \`${SECRET}\``), 'the guide names the example secret');
    const sign = createHmac('sha256', SECRET).update(text, 'utf8').digest('hex');
    assert.ok(guide.includes(`signs as \`sign=${sign}\``), 'the guide gives the sign of its example');
    assert.equal(params.get('sign'), sign, 'the platform signs the example so');
  });

  it('Node.js', async () => {
    const file = path.join(work, 'verify.mjs');
    writeFileSync(file, sample('js verify-launch'));
    const { signKey, verifyLaunch } = (await import(pathToFileURL(file).href)) as {
      signKey: (secret: string, key: string) => string;
      verifyLaunch: (secret: string, params: URLSearchParams, now: number) => boolean;
    };
    const results = cases().map((c) => String(verifyLaunch(c.secret, new URLSearchParams(c.query), c.now)));
    assert.deepEqual([signKey(SECRET, KEY), ...results], expected());
  });

  it('PHP', { skip: !has('php') && 'php is not installed' }, () => {
    const harness = `${sample('php verify-launch')}
echo sign_key('${SECRET}', '${KEY}'), "\\n";
foreach (json_decode(stream_get_contents(STDIN), true) as $c) {
    parse_str($c['query'], $query);
    echo verify_launch($c['secret'], $query, $c['now']) ? "true\\n" : "false\\n";
}
`;
    writeFileSync(path.join(work, 'verify.php'), harness);
    assert.deepEqual(answers('php', [path.join(work, 'verify.php')]), expected());
  });

  it('Python', { skip: !has('python3') && 'python3 is not installed' }, () => {
    writeFileSync(path.join(work, 'verify_launch_sample.py'), sample('python verify-launch'));
    const harness = [
      'import json, sys',
      'from urllib.parse import parse_qs',
      'from verify_launch_sample import sign_key, verify_launch',
      `print(sign_key("${SECRET}", "${KEY}"))`,
      'for c in json.load(sys.stdin):',
      '    print(str(verify_launch(c["secret"], parse_qs(c["query"], keep_blank_values=True), c["now"])).lower())',
    ].join('\n');
    assert.deepEqual(answers('python3', ['-c', harness], { cwd: work }), expected());
  });
});
