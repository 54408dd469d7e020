/**
 * Turns an assistant reply (Markdown-ish text) into blocks a React renderer can show without
 * ever injecting HTML, applying spec §5's reply-rendering rules:
 *
 * - long text is truncated to {@link REPLY_MAX_CHARS} characters plus an ellipsis;
 * - image links (png, jpg, jpeg, webp, gif) are extracted — never from code;
 * - mp4 links are treated as video;
 * - math delimiters `\( … \)` and `\[ … \]` are normalised to `$…$` and `$$…$$` outside code.
 *
 * Everything here is pure and string-based, so it runs (and is tested) without a DOM.
 */

/** Spec §9: replies longer than this are cut and end in an ellipsis. */
export const REPLY_MAX_CHARS = 2000;
export const ELLIPSIS = '…';

const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp', 'gif'] as const;
const VIDEO_EXTENSIONS = ['mp4'] as const;

/** A piece of text that is either prose or code (fenced block or inline span). */
export interface Segment {
  kind: 'text' | 'fence' | 'inline-code';
  /** The raw source of the segment, delimiters included. */
  raw: string;
}

/** Cuts text longer than `max` characters (code points, so emoji stay whole) and adds '…'. */
export function truncateReply(text: string, max: number = REPLY_MAX_CHARS): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')}${ELLIPSIS}`;
}

/**
 * Splits text into prose and code: fenced blocks (``` or ~~~, an unclosed fence runs to the
 * end, as it does while an answer is still streaming) and inline code spans.
 */
export function splitCode(text: string): Segment[] {
  const segments: Segment[] = [];
  const push = (kind: Segment['kind'], raw: string) => {
    if (!raw) return;
    const last = segments[segments.length - 1];
    if (kind === 'text' && last?.kind === 'text') last.raw += raw;
    else segments.push({ kind, raw });
  };
  const lines = text.split(/(?<=\n)/);
  let prose = '';
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!open) {
      prose += line;
      index += 1;
      continue;
    }
    splitInline(prose, push);
    prose = '';
    const fence = open[1] ?? '```';
    let raw = line;
    index += 1;
    while (index < lines.length) {
      const next = lines[index] ?? '';
      raw += next;
      index += 1;
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(next)) break;
    }
    push('fence', raw);
  }
  splitInline(prose, push);
  return segments;
}

function splitInline(text: string, push: (kind: Segment['kind'], raw: string) => void): void {
  let rest = text;
  for (;;) {
    const match = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/.exec(rest);
    if (!match) break;
    push('text', rest.slice(0, match.index));
    push('inline-code', match[0]);
    rest = rest.slice(match.index + match[0].length);
  }
  push('text', rest);
}

/** Applies `transform` to prose only, leaving fenced blocks and inline code untouched. */
export function mapProse(text: string, transform: (prose: string) => string): string {
  return splitCode(text)
    .map((segment) => (segment.kind === 'text' ? transform(segment.raw) : segment.raw))
    .join('');
}

/** `\( x \)` → `$x$` and `\[ x \]` → `$$x$$`, outside code. */
export function normaliseMath(text: string): string {
  return mapProse(text, (prose) =>
    prose
      .replace(/\\\[([\s\S]+?)\\\]/g, (_match, body: string) => `$$${body.trim()}$$`)
      .replace(/\\\(([\s\S]+?)\\\)/g, (_match, body: string) => `$${body.trim()}$`),
  );
}

/** A picture or a video found in a reply. */
export interface MediaLink {
  kind: 'image' | 'video';
  url: string;
  alt: string;
}

const extensionOf = (url: string): string => {
  const path = url.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(dot + 1).toLowerCase();
};

/** Whether a link points inside the console (e.g. the offline answer's API access → Models): followed in place, not in a new tab. */
export function isConsolePath(url: string): boolean {
  return /^\/console(?:[/?#]|$)/.test(url);
}

/** Whether a URL may be followed or loaded: http(s) only, and site paths. */
export function isSafeUrl(url: string): boolean {
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Whether a link points at media, and which kind. */
export function mediaKind(url: string): MediaLink['kind'] | undefined {
  const extension = extensionOf(url);
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return 'image';
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(extension)) return 'video';
  return undefined;
}

const MARKDOWN_IMAGE = /!\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const MARKDOWN_LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_URL = /(?<![(<\w"'=])https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/g;

/**
 * Takes image and video links out of the prose (never out of code): Markdown images, Markdown
 * links and bare URLs whose path ends in an image extension or .mp4. Answers the text without
 * them and the media in order of appearance, each URL once.
 */
export function extractMedia(text: string): { text: string; media: MediaLink[] } {
  const media: MediaLink[] = [];
  const seen = new Set<string>();
  const take = (url: string, alt: string): boolean => {
    const kind = mediaKind(url);
    if (!kind || !isSafeUrl(url)) return false;
    if (!seen.has(url)) {
      seen.add(url);
      media.push({ kind, url, alt });
    }
    return true;
  };
  const rest = mapProse(text, (prose) =>
    prose
      .replace(MARKDOWN_IMAGE, (match, alt: string, url: string) => (take(url, alt) ? '' : match))
      .replace(MARKDOWN_LINK, (match, label: string, url: string) => (take(url, label) ? '' : match))
      .replace(BARE_URL, (url: string) => (take(url, '') ? '' : url)),
  );
  return { text: rest.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim(), media };
}

// ---------------------------------------------------------------------------------------------
// Block and inline parsing

/** A run of inline content. */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'math'; text: string }
  | { type: 'link'; href: string; children: Inline[] };

/** A block of a reply. */
export type Block =
  | { type: 'paragraph'; inlines: Inline[] }
  | { type: 'heading'; level: number; inlines: Inline[] }
  | { type: 'code'; language: string; text: string }
  | { type: 'math'; text: string }
  | { type: 'quote'; inlines: Inline[] }
  | { type: 'list'; ordered: boolean; items: Inline[][] }
  | { type: 'rule' };

/** A reply ready to render: its blocks, then its media. */
export interface FormattedReply {
  blocks: Block[];
  media: MediaLink[];
  truncated: boolean;
}

/** Parses inline Markdown: code, $math$, links, **strong**, *em*, bare URLs. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pushText = (value: string) => {
    if (!value) return;
    const last = out[out.length - 1];
    if (last?.type === 'text') last.text += value;
    else out.push({ type: 'text', text: value });
  };
  const patterns: { regex: RegExp; build: (match: RegExpExecArray) => Inline | undefined }[] = [
    { regex: /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/, build: (m) => ({ type: 'code', text: (m[2] ?? '').trim() }) },
    { regex: /\$\$([^$]+?)\$\$/, build: (m) => ({ type: 'math', text: (m[1] ?? '').trim() }) },
    { regex: /\$([^$\s](?:[^$\n]*?[^$\s])?)\$/, build: (m) => ({ type: 'math', text: m[1] ?? '' }) },
    {
      // A Markdown image that is not a picture by its extension is shown as a link to it.
      regex: /!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/,
      build: (m) => (isSafeUrl(m[2] ?? '') ? { type: 'link', href: m[2] ?? '', children: m[1] ? parseInline(m[1]) : [{ type: 'text', text: m[2] ?? '' }] } : undefined),
    },
    { regex: /\*\*([^*\n]+?)\*\*|__([^_\n]+?)__/, build: (m) => ({ type: 'strong', children: parseInline(m[1] ?? m[2] ?? '') }) },
    { regex: /(?<![*\w])\*([^*\s](?:[^*\n]*?[^*\s])?)\*(?!\*)|(?<![_\w])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![_\w])/, build: (m) => ({ type: 'em', children: parseInline(m[1] ?? m[2] ?? '') }) },
    { regex: /https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/, build: (m) => ({ type: 'link', href: m[0], children: [{ type: 'text', text: m[0] }] }) },
  ];
  let rest = text;
  while (rest) {
    let best: { index: number; length: number; node: Inline | undefined; raw: string } | undefined;
    for (const { regex, build } of patterns) {
      const match = regex.exec(rest);
      if (match && (!best || match.index < best.index)) best = { index: match.index, length: match[0].length, node: build(match), raw: match[0] };
    }
    if (!best) {
      pushText(rest);
      break;
    }
    pushText(rest.slice(0, best.index));
    if (best.node) out.push(best.node);
    else pushText(best.raw);
    rest = rest.slice(best.index + best.length);
  }
  return out;
}

/** Splits prose (no fences) into blocks. */
function parseProseBlocks(prose: string, blocks: Block[]): void {
  const lines = prose.split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join('\n').trim();
    if (text) blocks.push({ type: 'paragraph', inlines: parseInline(text) });
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, inlines: parseInline(heading[2] ?? '') });
      continue;
    }
    if (/^([-*_])(\s*\1){2,}$/.test(trimmed)) {
      flush();
      blocks.push({ type: 'rule' });
      continue;
    }
    if (trimmed.startsWith('$$')) {
      // A display formula, possibly over several lines.
      let body = trimmed.slice(2);
      let end = body.indexOf('$$');
      while (end < 0 && index + 1 < lines.length) {
        index += 1;
        body += `\n${lines[index] ?? ''}`;
        end = body.indexOf('$$');
      }
      const after = end < 0 ? '' : body.slice(end + 2).trim();
      flush();
      blocks.push({ type: 'math', text: (end < 0 ? body : body.slice(0, end)).trim() });
      if (after) paragraph.push(after);
      continue;
    }
    if (trimmed.startsWith('>')) {
      flush();
      const quoted = [trimmed.replace(/^>\s?/, '')];
      while (index + 1 < lines.length && (lines[index + 1] ?? '').trim().startsWith('>')) {
        index += 1;
        quoted.push((lines[index] ?? '').trim().replace(/^>\s?/, ''));
      }
      blocks.push({ type: 'quote', inlines: parseInline(quoted.join('\n')) });
      continue;
    }
    const item = /^(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec(trimmed);
    if (item) {
      flush();
      const ordered = item[2] !== undefined;
      const items: Inline[][] = [parseInline(item[3] ?? '')];
      while (index + 1 < lines.length) {
        const next = /^(?:([-*+])|(\d+)[.)])\s+(.*)$/.exec((lines[index + 1] ?? '').trim());
        if (!next || (next[2] !== undefined) !== ordered) break;
        index += 1;
        items.push(parseInline(next[3] ?? ''));
      }
      blocks.push({ type: 'list', ordered, items });
      continue;
    }
    paragraph.push(line);
  }
  flush();
}

/** Parses text (already truncated, normalised and stripped of media) into blocks. */
export function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let prose = '';
  for (const segment of splitCode(text)) {
    if (segment.kind !== 'fence') {
      prose += segment.raw;
      continue;
    }
    parseProseBlocks(prose, blocks);
    prose = '';
    const [first = '', ...rest] = segment.raw.replace(/\n$/, '').split('\n');
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(first);
    const language = (fence?.[2] ?? '').trim().split(/\s+/)[0] ?? '';
    // An unclosed fence (an answer still streaming) keeps every line after the opening.
    const body = rest.length > 0 && /^ {0,3}(`{3,}|~{3,})\s*$/.test(rest[rest.length - 1] ?? '') ? rest.slice(0, -1) : rest;
    blocks.push({ type: 'code', language, text: body.join('\n') });
  }
  parseProseBlocks(prose, blocks);
  return blocks;
}

/** The whole pipeline of spec §5: truncate, normalise math, extract media, parse. */
export function formatReply(text: string, max: number = REPLY_MAX_CHARS): FormattedReply {
  const cut = truncateReply(text, max);
  const normalised = normaliseMath(cut);
  const { text: rest, media } = extractMedia(normalised);
  return { blocks: parseBlocks(rest), media, truncated: cut !== text };
}
