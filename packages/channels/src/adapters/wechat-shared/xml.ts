/**
 * The flat XML WeChat, WeCom and WeChat Customer Service exchange: one `<xml>` root whose children
 * are text or CDATA. A small scanner is enough; it expands no entities beyond the five predefined
 * ones and numeric references, and ignores DOCTYPEs, so no external input can make it fetch or grow.
 */

const entities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return safeCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole;
    if (name.startsWith("#")) return safeCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole;
    return entities[name] ?? whole;
  });
}

function safeCodePoint(code: number): string | undefined {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** The text of an element's content: CDATA sections and text joined, entities decoded. Child elements are kept as raw XML. */
function contentValue(raw: string): string {
  const outsideCdata = raw.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "");
  if (/<[A-Za-z]/.test(outsideCdata)) return raw;
  if (!raw.includes("<![CDATA[")) return decodeText(raw.trim());
  let value = "";
  let rest = raw;
  while (rest.length > 0) {
    const start = rest.indexOf("<![CDATA[");
    if (start < 0) {
      value += decodeText(rest.trim());
      break;
    }
    value += decodeText(rest.slice(0, start).trim());
    const end = rest.indexOf("]]>", start + 9);
    if (end < 0) return value + rest.slice(start + 9);
    value += rest.slice(start + 9, end);
    rest = rest.slice(end + 3);
  }
  return value;
}

/**
 * The children of the `<xml>` root, by element name (the first occurrence wins).
 * Undefined when the text has no `<xml>…</xml>` root; never throws.
 */
export function parseXml(text: string): Record<string, string> | undefined {
  const open = text.search(/<xml\s*>/);
  const close = text.lastIndexOf("</xml>");
  if (open < 0 || close < open) return undefined;
  const body = text.slice(text.indexOf(">", open) + 1, close);
  const fields: Record<string, string> = {};
  const tag = /<([A-Za-z_][\w.-]*)\s*(\/?)>/g;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(body)) !== null) {
    const name = match[1] as string;
    if (match[2] === "/") {
      if (!(name in fields)) fields[name] = "";
      continue;
    }
    const start = tag.lastIndex;
    const end = closingTagIndex(body, name, start);
    if (end < 0) return undefined;
    if (!(name in fields)) fields[name] = contentValue(body.slice(start, end));
    tag.lastIndex = end + name.length + 3;
  }
  return fields;
}

/** Where `</name>` closes the element opened just before `from`, skipping CDATA and same-named children. */
function closingTagIndex(body: string, name: string, from: number): number {
  let depth = 1;
  let at = from;
  while (at < body.length) {
    const next = body.indexOf("<", at);
    if (next < 0) return -1;
    if (body.startsWith("<![CDATA[", next)) {
      const end = body.indexOf("]]>", next + 9);
      if (end < 0) return -1;
      at = end + 3;
      continue;
    }
    if (body.startsWith(`</${name}>`, next)) {
      depth -= 1;
      if (depth === 0) return next;
    } else if (body.startsWith(`<${name}>`, next)) {
      depth += 1;
    }
    at = next + 1;
  }
  return -1;
}

/** `value` as a CDATA section (a `]]>` inside is split across two sections). */
export function cdata(value: string): string {
  return `<![CDATA[${value.split("]]>").join("]]]]><![CDATA[>")}]]>`;
}

/** An `<xml>` document from fields: strings go in CDATA, numbers as bare text, in the given order. */
export function buildXml(fields: Record<string, string | number>): string {
  const children = Object.entries(fields).map(([name, value]) =>
    typeof value === "number" ? `<${name}>${value}</${name}>` : `<${name}>${cdata(value)}</${name}>`,
  );
  return `<xml>${children.join("")}</xml>`;
}
