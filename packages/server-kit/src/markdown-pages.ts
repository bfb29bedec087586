import { readFileSync } from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import Token from 'markdown-it/lib/token.mjs';

/**
 * The repository's Markdown guides rendered as web pages by markdown-it, with the Markdown's raw HTML
 * disabled (a guide's `<b>` shows as text, never as markup) and markdown-it's own URL check (no
 * `javascript:` links). Headings get the anchors GitHub gives them (github-slugger, as the link check
 * reads them), so a link that works on GitHub works served; links between documents are rewritten by
 * the serving service to the URLs it serves them at, and a link to a file it does not serve keeps its
 * text only (the repository path as its title).
 */
export interface RenderedPage {
  title: string;
  html: string;
}

export interface MarkdownPagesOptions {
  /** The repository's docs/ folder. */
  docsDir: string;
  /**
   * The URL a file is served at, by its path from docs/ (`guides/api/feed.md`, `screenshots/x.png`),
   * or undefined when this service does not serve it.
   */
  urlOf(docPath: string): string | undefined;
}

/** The stylesheet a page of rendered guides adds to the service's Pico CSS: one file for both services. */
export const MARKDOWN_PAGES_CSS: Buffer = readFileSync(new URL('./markdown-pages.css', import.meta.url));

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** The text GitHub slugs a heading from: what the reader sees, without Markdown's marks. */
function headingText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** A relative link of `fromDoc` read as a path from docs/ and an anchor; undefined when it leaves docs/. */
function resolveRelative(fromDoc: string, target: string): { docPath: string; anchor: string } | undefined {
  const [file = '', anchor = ''] = target.split(/#(.*)/s);
  if (file === '') return { docPath: fromDoc, anchor };
  const docPath = path.posix.normalize(path.posix.join(path.posix.dirname(fromDoc), decodeURI(file)));
  if (docPath.startsWith('../') || docPath === '..') return undefined;
  return { docPath, anchor };
}

export class MarkdownPages {
  readonly #docsDir: string;
  readonly #urlOf: (docPath: string) => string | undefined;

  constructor(options: MarkdownPagesOptions) {
    this.#docsDir = options.docsDir;
    this.#urlOf = options.urlOf;
  }

  /** The page's title: the text of its first heading, or the file's name. */
  titleOf(docPath: string): string {
    const tokens = markdown.parse(this.#read(docPath), {});
    const heading = tokens.findIndex((token) => token.type === 'heading_open');
    return heading >= 0 ? headingText(tokens[heading + 1]) : path.posix.basename(docPath, '.md');
  }

  /** `docPath` (from docs/, e.g. `guides/quick-start.md`) as HTML for the service's layout. */
  render(docPath: string): RenderedPage {
    const tokens = markdown.parse(this.#read(docPath), {});
    const slugger = new GithubSlugger();
    let title = '';
    tokens.forEach((token, index) => {
      const inline = tokens[index + 1];
      if (token.type === 'heading_open' && inline) {
        const text = headingText(inline);
        const id = slugger.slug(text);
        token.attrSet('id', id);
        title ||= text;
        // A link to the heading itself, so a reader can copy the section's address.
        if (token.tag !== 'h1') inline.children?.push(...selfLink(id, text));
      }
      if (token.type !== 'inline') return;
      const children = token.children ?? [];
      children.forEach((child, at) => {
        if (child.type === 'image') this.#rewriteImage(docPath, child);
        if (child.type !== 'link_open' || this.#rewriteLink(docPath, child)) return;
        // Not served here: the text stays, without a link that would lead nowhere.
        const close = children.slice(at).find((next) => next.type === 'link_close');
        child.tag = 'span';
        if (close) close.tag = 'span';
      });
    });
    return {
      title: title || path.posix.basename(docPath, '.md'),
      html: markdown.renderer.render(tokens, markdown.options, {}),
    };
  }

  #read(docPath: string): string {
    return readFileSync(path.join(this.#docsDir, docPath), 'utf8');
  }

  /** Points a relative link at the page serving its target; false when this service does not serve it. */
  #rewriteLink(fromDoc: string, link: Token): boolean {
    const href = link.attrGet('href') ?? '';
    if (href === '' || isExternal(href) || href.startsWith('#')) return true;
    const resolved = resolveRelative(fromDoc, href);
    const url = resolved && this.#urlOf(resolved.docPath);
    if (url) {
      link.attrSet('href', resolved.anchor ? `${url}#${resolved.anchor}` : url);
      return true;
    }
    const repositoryPath = path.posix.normalize(
      path.posix.join('docs', path.posix.dirname(fromDoc), href.split('#')[0]!),
    );
    link.attrs = [
      ['class', 'repository-path'],
      ['title', `${repositoryPath} in the repository`],
    ];
    return false;
  }

  #rewriteImage(fromDoc: string, image: Token): void {
    const src = image.attrGet('src') ?? '';
    if (isExternal(src)) return;
    const resolved = resolveRelative(fromDoc, src);
    image.attrSet('src', (resolved && this.#urlOf(resolved.docPath)) ?? '');
    image.attrSet('loading', 'lazy');
  }
}

function selfLink(id: string, text: string): Token[] {
  const open = new Token('link_open', 'a', 1);
  open.attrs = [
    ['href', `#${id}`],
    ['class', 'heading-anchor'],
    ['aria-label', `Link to the section “${text}”`],
  ];
  const symbol = new Token('text', '', 0);
  symbol.content = '#';
  return [open, symbol, new Token('link_close', 'a', -1)];
}
