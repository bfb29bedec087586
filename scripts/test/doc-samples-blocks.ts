/**
 * The code samples of the guides, as the doc test reads them: every fenced block is either an HTTP
 * example that runs (curl lines, a `GET /path` transcript, TypeScript, Python), the JSON answer of
 * the call just before it, or something that is no call (a command line, a diagram, a page snippet,
 * an answer shape). A block the fence marks `no-run` (```` ```sh no-run ````) is never run.
 */
import MarkdownIt from 'markdown-it';

export type SampleKind = 'shell' | 'transcript' | 'ts' | 'python';

export interface Sample {
  /** Path under docs/guides/. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  flags: string[];
  content: string;
  /** Why the block is not run, or undefined when it runs. */
  skip?: string;
  kind?: SampleKind;
  /** The JSON block right after a call: what the call answers. */
  answer?: { line: number; content: string };
}

/** Blocks another doc test runs against what the services sign, by guide and language. */
const VERIFIED_ELSEWHERE: Record<string, { languages: string[]; test: string }> = {
  'webhooks.md': { languages: ['http', 'js', 'python', 'php', 'go'], test: 'readme-webhook-samples.test.ts' },
};
/** Fence flags that name another doc test (```` ```python verify-launch ````). */
const FLAGGED_ELSEWHERE: Record<string, string> = {
  'verify-launch': 'platform-launch-samples.test.ts',
};

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/m;
const CURL_LINE = /^\s*curl\s/m;

function kindOf(language: string, content: string): SampleKind | undefined {
  if (language === 'ts' || language === 'typescript') return 'ts';
  if (language === 'python' || language === 'py') return 'python';
  if (language === '' || language === 'sh' || language === 'bash' || language === 'http') {
    if (CURL_LINE.test(content)) return 'shell';
    if (REQUEST_LINE.test(content)) return 'transcript';
  }
  return undefined;
}

/** Every fenced block of one guide, classified. */
export function samplesOf(file: string, markdown: string): Sample[] {
  const lines = markdown.split('\n');
  const fences = new MarkdownIt().parse(markdown, {}).filter((token) => token.type === 'fence');
  const samples: Sample[] = [];
  let previousEnd = 0;
  for (const fence of fences) {
    const [language = '', ...flags] = fence.info.trim().split(/\s+/);
    const [start = 0, end = 0] = fence.map ?? [];
    const sample: Sample = { file, line: start + 1, language, flags, content: fence.content };
    const previous = samples.at(-1);
    const adjacent = lines.slice(previousEnd, start).join('').trim() === '';
    previousEnd = end;
    if (language === 'json' && previous?.kind && !previous.skip && !previous.answer && adjacent) {
      previous.answer = { line: sample.line, content: fence.content };
      samples.push({ ...sample, skip: 'the answer of the call above (checked with it)' });
      continue;
    }
    const kind = kindOf(language, fence.content);
    const elsewhere = VERIFIED_ELSEWHERE[file]?.languages.includes(language)
      ? VERIFIED_ELSEWHERE[file].test
      : flags.map((flag) => FLAGGED_ELSEWHERE[flag]).find(Boolean);
    sample.kind = kind;
    if (flags.includes('no-run')) sample.skip = 'marked no-run';
    else if (elsewhere) sample.skip = `run by ${elsewhere}`;
    else if (!kind) sample.skip = language === 'json' ? 'an answer shape, not a call' : 'no HTTP call';
    samples.push(sample);
  }
  return samples;
}
