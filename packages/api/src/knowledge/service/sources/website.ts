import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { fail } from "../../../errors";
import { type AddressPolicy, guardedFetch, PluginNetworkError, type Resolver } from "../../../plugins/service/network";

/** Why a page could not be imported, for the logs and the file's options (the user sees "this website does not support import"). */
export class WebsiteImportError extends Error {
  override name = "WebsiteImportError";
}

/** Limits and address rules of one website fetch. */
export interface WebsiteFetchOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  resolver?: Resolver;
}

/** A page made readable: its title and its main text as Markdown. */
export interface ReadablePage {
  title: string;
  markdown: string;
}

/** Fewest characters of readable text a page must have to be worth importing. */
export const READABLE_MIN_CHARACTERS = 20;

/** Checks a website address: http:// or https:// and a host, else 400 on `url` (spec §5). */
export function checkWebsiteUrl(input: string): URL {
  const trimmed = input.trim();
  if (!/^https?:\/\//i.test(trimmed)) throw fail.invalid("website_url_invalid", "url");
  try {
    const url = new URL(trimmed);
    if (!url.hostname) throw new Error("no host");
    return url;
  } catch {
    throw fail.invalid("website_url_invalid", "url");
  }
}

const HTML_TYPES = ["text/html", "application/xhtml+xml"];

/** The charset a page declares in its Content-Type, or in a `<meta>` near its start. */
function charsetOf(contentType: string, head: Buffer): string {
  const header = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType);
  if (header) return header[1]!.toLowerCase();
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head.subarray(0, 2048).toString("latin1"));
  return meta ? meta[1]!.toLowerCase() : "utf-8";
}

function decodeHtml(body: Buffer, contentType: string): string {
  const charset = charsetOf(contentType, body);
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/**
 * Fetches a web page under the plugins' address rules: every redirect hop is checked (a hop to a
 * loopback, private or metadata address is refused unless configured), one deadline covers the
 * whole exchange and at most `maxBytes` are read. Answers the HTML text and the final URL, or
 * throws a {@link WebsiteImportError} saying why not.
 */
export async function fetchWebPage(url: URL, options: WebsiteFetchOptions): Promise<{ html: string; url: string; bytes: number }> {
  let response;
  try {
    response = await guardedFetch(
      {
        method: "GET",
        url: url.toString(),
        headers: {
          "user-agent": "Mozilla/5.0 (compatible; ParleyKnowledgeImport/1.0)",
          accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
          "accept-language": "zh-CN,zh;q=0.9,en;q=0.8",
        },
      },
      {
        policy: options.policy,
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        maxRedirects: options.maxRedirects ?? 5,
        ...(options.resolver ? { resolver: options.resolver } : {}),
      },
    );
  } catch (error) {
    if (error instanceof PluginNetworkError) throw new WebsiteImportError(`${error.reason}: ${error.message}`);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) throw new WebsiteImportError(`the page answered HTTP ${response.status}`);
  if (response.truncated) throw new WebsiteImportError(`the page is larger than ${options.maxBytes} bytes`);
  const contentType = (response.headers["content-type"] ?? "").toLowerCase();
  const mediaType = contentType.split(";")[0]!.trim();
  const looksHtml = /^\s*(<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString("latin1"));
  if (mediaType ? !HTML_TYPES.includes(mediaType) : !looksHtml) throw new WebsiteImportError(`not an HTML page (${mediaType || "no content type"})`);
  return { html: decodeHtml(response.body, contentType), url: response.url, bytes: response.body.length };
}

function absolutize(document: Document, pageUrl: string) {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute);
      if (!value) continue;
      try {
        element.setAttribute(attribute, new URL(value, pageUrl).toString());
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

/**
 * Extracts a page's main text with Readability (on linkedom's DOM) and converts it to Markdown
 * with Turndown; links and images are made absolute. Undefined when the page has no readable
 * text worth importing.
 */
export function extractReadable(html: string, pageUrl: string): ReadablePage | undefined {
  const { document } = parseHTML(html);
  absolutize(document as unknown as Document, pageUrl);
  const pageTitle = (document.title ?? "").trim();
  let article: ReturnType<Readability["parse"]>;
  try {
    article = new Readability(document as unknown as Document, { keepClasses: false }).parse();
  } catch {
    return undefined;
  }
  const text = (article?.textContent ?? "").replace(/\s+/g, " ").trim();
  if (!article?.content || text.length < READABLE_MIN_CHARACTERS) return undefined;
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.remove(["script", "style", "noscript", "iframe", "form"] as never);
  const body = turndown.turndown(article.content).trim();
  if (body.replace(/\s+/g, "").length === 0) return undefined;
  const title = (article.title ?? "").trim() || pageTitle;
  const markdown = title && !body.startsWith(`# ${title}`) ? `# ${title}\n\n${body}\n` : `${body}\n`;
  return { title, markdown };
}

/**
 * A file name from a title under the file-name rule (letters, digits, _ and -; at most 50): other
 * characters become hyphens. A title with nothing left (all Chinese, say) falls back to
 * `fallback` made to fit the same rule, then to "imported".
 */
export function fileNameFromTitle(title: string, fallback: string): string {
  const clean = (value: string) =>
    value
      .normalize("NFKD")
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/-{2,}/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 50)
      .replace(/-+$/g, "");
  return clean(title) || clean(fallback) || "imported";
}

/** The host name of a URL, for naming a file after it. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
