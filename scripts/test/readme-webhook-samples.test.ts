/**
 * The webhooks guide's verification samples, run against signatures made by the library the
 * service signs with (standardwebhooks): a sample that drifts from what the service sends fails
 * here, not in a customer's receiver. Python, PHP and Go run where their tool is installed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { Webhook } from 'standardwebhooks';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const guide = readFileSync(path.join(root, 'docs/guides/webhooks.md'), 'utf8');

/** The one fenced block of the guide in `language`. */
function sample(language: string): string {
  const blocks = new MarkdownIt().parse(guide, {}).filter((token) => token.type === 'fence' && token.info === language);
  assert.equal(blocks.length, 1, `the guide has one ${language} block`);
  return blocks[0]!.content;
}

const SECRET = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, index) => index)).toString('base64')}`;
const BODY = JSON.stringify({
  type: 'quota.warning',
  timestamp: '2026-03-10T12:00:00.000Z',
  data: { plan: 'starter', limit: 1000, used: 800, day: '2026-03-10' },
});
const ID = 'msg_4bq3Tb1zJ8mZwXkQ';

interface Case {
  name: string;
  secret: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  valid: boolean;
}

/** Deliveries as the service sends them (signed now), and the ways a forged or stale one differs. */
function cases(): Case[] {
  const now = new Date();
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = new Webhook(SECRET).sign(ID, now, BODY);
  const old = new Date(now.getTime() - 10 * 60 * 1000);
  const base = { secret: SECRET, id: ID, timestamp, signature, body: BODY };
  return [
    { name: 'as sent', ...base, valid: true },
    { name: 'one of two signatures', ...base, signature: `v1,AAAA ${signature}`, valid: true },
    { name: 'body changed', ...base, body: `${BODY} `, valid: false },
    { name: 'another id', ...base, id: 'msg_other', valid: false },
    {
      name: 'another secret',
      ...base,
      secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      valid: false,
    },
    {
      name: 'ten minutes old',
      ...base,
      timestamp: String(Math.floor(old.getTime() / 1000)),
      signature: new Webhook(SECRET).sign(ID, old, BODY),
      valid: false,
    },
    { name: 'unknown version', ...base, signature: signature.replace('v1,', 'v2,'), valid: false },
  ];
}

const work = mkdtempSync(path.join(tmpdir(), 'webhook-samples-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Whether a command is installed (the samples of other languages run only where it is). */
function has(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    try {
      execFileSync(command, ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }
}

/** Runs a harness that reads the cases as JSON on stdin and prints one true/false per line. */
function answers(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const output = execFileSync(command, args, { input: JSON.stringify(cases()), encoding: 'utf8', ...options });
  return output.trim().split('\n');
}

function expected(): string[] {
  return cases().map((delivery) => String(delivery.valid));
}

describe('the webhooks guide’s samples verify what the service signs', () => {
  it('the example delivery carries the signature the library makes for it', () => {
    const example = sample('http');
    assert.ok(guide.includes(SECRET), 'the guide names the example secret');
    assert.ok(example.includes(`webhook-id: ${ID}`));
    assert.ok(example.trimEnd().endsWith(BODY));
    const timestamp = /webhook-timestamp: (\d+)/.exec(example)![1]!;
    const signature = /webhook-signature: (\S+)/.exec(example)![1]!;
    assert.equal(signature, new Webhook(SECRET).sign(ID, new Date(Number(timestamp) * 1000), BODY));
  });

  it('Node.js', async () => {
    const file = path.join(work, 'verify.mjs');
    writeFileSync(file, sample('js'));
    const { verifyWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyWebhook: (secret: string, headers: Record<string, string>, body: Buffer) => boolean;
    };
    const results = cases().map((delivery) =>
      String(
        verifyWebhook(
          delivery.secret,
          {
            'webhook-id': delivery.id,
            'webhook-timestamp': delivery.timestamp,
            'webhook-signature': delivery.signature,
          },
          Buffer.from(delivery.body),
        ),
      ),
    );
    assert.deepEqual(results, expected());
  });

  it('Python', { skip: !has('python3') && 'python3 is not installed' }, () => {
    writeFileSync(path.join(work, 'verify_sample.py'), sample('python'));
    const harness = [
      'import json, sys',
      'from verify_sample import verify_webhook',
      'for c in json.load(sys.stdin):',
      '    headers = {"webhook-id": c["id"], "webhook-timestamp": c["timestamp"], "webhook-signature": c["signature"]}',
      '    print(str(verify_webhook(c["secret"], headers, c["body"].encode())).lower())',
    ].join('\n');
    assert.deepEqual(answers('python3', ['-c', harness], { cwd: work }), expected());
  });

  it('PHP', { skip: !has('php') && 'php is not installed' }, () => {
    // The sample ends with how a script calls it from a request; the harness keeps the function.
    const functionOnly = sample('php').split('\n$ok = ')[0]!;
    const harness = `${functionOnly}
foreach (json_decode(stream_get_contents(STDIN), true) as $c) {
    echo verify_webhook($c['secret'], $c['id'], $c['timestamp'], $c['signature'], $c['body']) ? "true\\n" : "false\\n";
}
`;
    writeFileSync(path.join(work, 'verify.php'), harness);
    assert.deepEqual(answers('php', [path.join(work, 'verify.php')]), expected());
  });

  it('Go', { skip: !has('go') && 'go is not installed' }, () => {
    const module = path.join(work, 'go');
    mkdirSync(path.join(module, 'webhooks'), { recursive: true });
    writeFileSync(path.join(module, 'go.mod'), 'module check\n\ngo 1.19\n');
    writeFileSync(path.join(module, 'webhooks', 'webhooks.go'), sample('go'));
    writeFileSync(
      path.join(module, 'main.go'),
      `package main

import (
	"check/webhooks"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

func main() {
	var cases []map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	for _, c := range cases {
		header := http.Header{}
		header.Set("webhook-id", c["id"].(string))
		header.Set("webhook-timestamp", c["timestamp"].(string))
		header.Set("webhook-signature", c["signature"].(string))
		fmt.Println(webhooks.Verify(c["secret"].(string), header, []byte(c["body"].(string))))
	}
}
`,
    );
    // Offline: the sample needs the standard library only.
    const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' };
    assert.deepEqual(answers('go', ['run', '.'], { cwd: module, env }), expected());
  });
});
