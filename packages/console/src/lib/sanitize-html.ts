/**
 * A small allow-list HTML sanitizer for server messages shown as HTML (error code 440).
 *
 * It works on the string alone (no DOM), so the same code runs in the browser and in unit
 * tests. Anything not explicitly allowed is either dropped with its content (scripts, styles,
 * embedded documents) or reduced to escaped text. Only `href` on links survives as an
 * attribute, and only with http, https or mailto schemes or a same-site path.
 */

const ALLOWED_TAGS = new Set(["a", "b", "br", "code", "div", "em", "i", "li", "ol", "p", "s", "small", "span", "strong", "u", "ul"]);
const VOID_TAGS = new Set(["br"]);
/** Elements whose whole content is removed, not just the tags. */
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "iframe",
  "object",
  "embed",
  "template",
  "noscript",
  "textarea",
  "title",
  "svg",
  "math",
  "xmp",
  "noembed",
  "noframes",
]);

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const ENTITY = /&(?:#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/y;

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", colon: ":", tab: "\t", newline: "\n" };

/** Escapes text for HTML, keeping well-formed character references as they are. */
function escapeText(text: string): string {
  let result = "";
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === "&") {
      ENTITY.lastIndex = index;
      const match = ENTITY.exec(text);
      if (match) {
        result += match[0];
        index += match[0].length - 1;
        continue;
      }
      result += "&amp;";
    } else if (character === "<") result += "&lt;";
    else if (character === ">") result += "&gt;";
    else if (character === '"') result += "&quot;";
    else if (character === "'") result += "&#39;";
    else result += character;
  }
  return result;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, body: string) => {
    const lower = body.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16) || 0xfffd);
    if (lower.startsWith("#")) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10) || 0xfffd);
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

/** Returns the link target when it is safe to keep, otherwise `undefined`. */
export function safeHref(raw: string): string | undefined {
  // Browsers ignore control characters and whitespace inside a scheme, so compare without them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
  const invisible = /[\u0000-\u0020\u007f-\u009f]/g;
  const compact = decodeEntities(raw).replace(invisible, "").toLowerCase();
  if (/^(https?:|mailto:)/.test(compact)) return raw.trim();
  if (compact.startsWith("/") && !compact.startsWith("//") && !compact.startsWith("/\\")) return raw.trim();
  if (compact.startsWith("#")) return raw.trim();
  return undefined;
}

function renderOpenTag(name: string, attributeSource: string): string {
  if (name !== "a") return `<${name}>`;
  let href: string | undefined;
  for (const match of attributeSource.matchAll(ATTRIBUTE)) {
    if (match[1]?.toLowerCase() !== "href") continue;
    href = safeHref(match[2] ?? match[3] ?? match[4] ?? "");
    break;
  }
  if (href === undefined) return "<a>";
  return `<a href="${escapeAttribute(href)}" target="_blank" rel="noopener noreferrer nofollow">`;
}

/**
 * Turns untrusted HTML into markup that keeps simple formatting and safe links only.
 * Unclosed allowed tags are closed at the end; stray closing tags are dropped.
 */
export function sanitizeHtml(input: string): string {
  let output = "";
  const open: string[] = [];
  let cursor = 0;
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN.exec(input)) !== null) {
    output += escapeText(input.slice(cursor, match.index));
    cursor = TOKEN.lastIndex;
    const [, slash, rawName, attributes] = match;
    if (rawName === undefined) continue; // a comment
    const name = rawName.toLowerCase();
    const closing = slash === "/";
    if (!closing && DROP_WITH_CONTENT.has(name)) {
      const end = new RegExp(`</${name}\\s*>`, "ig");
      end.lastIndex = cursor;
      const found = end.exec(input);
      cursor = found ? end.lastIndex : input.length;
      TOKEN.lastIndex = cursor;
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      const depth = open.lastIndexOf(name);
      if (depth === -1) continue;
      while (open.length > depth) output += `</${open.pop()}>`;
      continue;
    }
    output += renderOpenTag(name, attributes ?? "");
    if (!VOID_TAGS.has(name)) open.push(name);
  }
  output += escapeText(input.slice(cursor));
  while (open.length > 0) output += `</${open.pop()}>`;
  return output;
}
