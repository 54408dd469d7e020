import { describe, expect, it } from 'vitest';
import {
  ELLIPSIS, extractMedia, formatReply, isConsolePath, isSafeUrl, normaliseMath, parseBlocks, parseInline, REPLY_MAX_CHARS, splitCode, truncateReply,
} from './reply-format';

describe('truncateReply (spec §5/§9: 2000 characters plus an ellipsis)', () => {
  it('keeps text of exactly 2000 characters and cuts longer text, adding the ellipsis', () => {
    const exact = 'a'.repeat(REPLY_MAX_CHARS);
    expect(truncateReply(exact)).toBe(exact);
    const long = 'b'.repeat(REPLY_MAX_CHARS + 1);
    const cut = truncateReply(long);
    expect(cut).toBe(`${'b'.repeat(REPLY_MAX_CHARS)}${ELLIPSIS}`);
    expect([...cut].length).toBe(REPLY_MAX_CHARS + 1);
  });

  it('counts characters, not UTF-16 units, so an emoji is never split', () => {
    const text = '😀'.repeat(5);
    expect(truncateReply(text, 3)).toBe(`😀😀😀${ELLIPSIS}`);
  });

  it('formatReply reports the cut', () => {
    expect(formatReply('x'.repeat(2500)).truncated).toBe(true);
    expect(formatReply('short').truncated).toBe(false);
  });
});

describe('splitCode', () => {
  it('separates fenced blocks and inline code from prose', () => {
    const segments = splitCode('before `inline` mid\n```js\nconst a = 1;\n```\nafter');
    expect(segments.map((segment) => segment.kind)).toEqual(['text', 'inline-code', 'text', 'fence', 'text']);
    expect(segments[3]?.raw).toBe('```js\nconst a = 1;\n```\n');
  });

  it('runs an unclosed fence (a streaming answer) to the end', () => {
    const segments = splitCode('intro\n```py\nprint(1)');
    expect(segments.map((segment) => segment.kind)).toEqual(['text', 'fence']);
  });
});

describe('normaliseMath (outside code only)', () => {
  it('turns \\( \\) into $ $ and \\[ \\] into $$ $$', () => {
    expect(normaliseMath('Area is \\( \\pi r^2 \\) and \\[ E = mc^2 \\]')).toBe('Area is $\\pi r^2$ and $$E = mc^2$$');
  });

  it('leaves delimiters inside fenced blocks and inline code alone', () => {
    const fenced = '```\nprintf("\\(x\\)");\n```';
    expect(normaliseMath(fenced)).toBe(fenced);
    expect(normaliseMath('use `\\(a\\)` but \\(b\\)')).toBe('use `\\(a\\)` but $b$');
  });
});

describe('extractMedia (spec §5: image links extracted ignoring code; mp4 is video)', () => {
  it('extracts Markdown images, image links and bare image URLs of every allowed extension', () => {
    const text = [
      'Here: ![cat](https://x.test/cat.png)',
      'and [photo](https://x.test/p.JPG?size=2) and https://x.test/a.jpeg',
      'also https://x.test/b.webp and https://x.test/c.gif.',
    ].join('\n');
    const { text: rest, media } = extractMedia(text);
    expect(media.map((item) => item.url)).toEqual([
      'https://x.test/cat.png', 'https://x.test/p.JPG?size=2', 'https://x.test/a.jpeg', 'https://x.test/b.webp', 'https://x.test/c.gif',
    ]);
    expect(media.every((item) => item.kind === 'image')).toBe(true);
    expect(media[0]?.alt).toBe('cat');
    expect(rest).not.toMatch(/https?:/);
  });

  it('treats .mp4 links as video', () => {
    const { media } = extractMedia('Watch https://x.test/clip.mp4 now');
    expect(media).toEqual([{ kind: 'video', url: 'https://x.test/clip.mp4', alt: '' }]);
  });

  it('ignores links inside fenced code and inline code', () => {
    const text = '```\n![x](https://x.test/in-code.png)\n```\nand `https://x.test/inline.png` plus https://x.test/real.png';
    const { text: rest, media } = extractMedia(text);
    expect(media.map((item) => item.url)).toEqual(['https://x.test/real.png']);
    expect(rest).toContain('https://x.test/in-code.png');
    expect(rest).toContain('`https://x.test/inline.png`');
  });

  it('keeps other links, non-media extensions and unsafe schemes in the text', () => {
    const text = 'See [docs](https://x.test/guide) and https://x.test/file.pdf and ![x](javascript:alert(1).png)';
    const { media } = extractMedia(text);
    expect(media).toEqual([]);
  });

  it('lists a repeated URL once', () => {
    expect(extractMedia('https://x.test/a.png https://x.test/a.png').media).toHaveLength(1);
  });
});

describe('parseInline', () => {
  it('parses code, math, links, strong and emphasis', () => {
    expect(parseInline('a **b** *c* `d` $e$ [f](https://x.test)')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'code', text: 'd' },
      { type: 'text', text: ' ' },
      { type: 'math', text: 'e' },
      { type: 'text', text: ' ' },
      { type: 'link', href: 'https://x.test', children: [{ type: 'text', text: 'f' }] },
    ]);
  });

  it('shows a Markdown image that is not a picture as a plain link, without the "!"', () => {
    expect(parseInline('![map](https://x.test/map)')).toEqual([{ type: 'link', href: 'https://x.test/map', children: [{ type: 'text', text: 'map' }] }]);
  });

  it('never makes a link of a javascript: URL and keeps HTML as plain text', () => {
    const nodes = parseInline('[click](javascript:alert(1)) <img src=x onerror=alert(1)>');
    expect(nodes.some((node) => node.type === 'link')).toBe(false);
    expect(nodes.map((node) => (node.type === 'text' ? node.text : '')).join('')).toContain('<img src=x onerror=alert(1)>');
    expect(isSafeUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeUrl('data:text/html,hi')).toBe(false);
    expect(isSafeUrl('//evil.test/x')).toBe(false);
    expect(isSafeUrl('/assets/a.png')).toBe(true);
  });

  it("links the offline answer's console place, which the chat follows in place", () => {
    const text = 'The owner can add one in the Parley console under [API access → Models](/console/Integrations?tab=models).';
    const [, link] = parseInline(text);
    expect(link).toEqual({ type: 'link', href: '/console/Integrations?tab=models', children: [{ type: 'text', text: 'API access → Models' }] });
    expect(isConsolePath('/console/Integrations?tab=models')).toBe(true);
    expect(isConsolePath('/consoles/x')).toBe(false);
    expect(isConsolePath('https://x.test/console/x')).toBe(false);
  });
});

describe('parseBlocks', () => {
  it('parses headings, lists, quotes, rules, code and display math', () => {
    const blocks = parseBlocks('# Title\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n---\n\n```ts\nconst x = 1;\n```\n\n$$a+b$$\n\nThe end.');
    expect(blocks.map((block) => block.type)).toEqual(['heading', 'list', 'list', 'quote', 'rule', 'code', 'math', 'paragraph']);
    expect(blocks[5]).toEqual({ type: 'code', language: 'ts', text: 'const x = 1;' });
    expect(blocks[6]).toEqual({ type: 'math', text: 'a+b' });
  });

  it('shows an unclosed fence as code while the answer streams', () => {
    expect(parseBlocks('```py\nprint(1)\n')).toEqual([{ type: 'code', language: 'py', text: 'print(1)' }]);
  });
});

describe('formatReply', () => {
  it('applies every rule: math normalised, media pulled out, code untouched', () => {
    const reply = formatReply('Look ![a](https://x.test/a.png) at \\(x^2\\)\n```\n\\(raw\\) https://x.test/b.png\n```');
    expect(reply.media.map((item) => item.url)).toEqual(['https://x.test/a.png']);
    expect(reply.blocks[0]).toMatchObject({ type: 'paragraph' });
    expect(JSON.stringify(reply.blocks[0])).toContain('"type":"math","text":"x^2"');
    expect(reply.blocks[1]).toEqual({ type: 'code', language: '', text: '\\(raw\\) https://x.test/b.png' });
  });
});
