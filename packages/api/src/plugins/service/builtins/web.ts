import type { Config } from "../../../config";
import { guardedFetch, PluginNetworkError, type Resolver } from "../network";
import { htmlToText } from "./html-text";

/** How much of a page is downloaded: pages are mostly markup, so more than a plugin answer. */
export const PAGE_DOWNLOAD_BYTES = 2 * 1024 * 1024;
/** Characters of page text returned when the model does not ask for fewer. */
export const DEFAULT_PAGE_CHARACTERS = 20_000;
/** The most page text returned at once. */
export const MAX_PAGE_CHARACTERS = 50_000;

/** What the web built-ins need. */
export interface WebContext {
  config: Config["plugins"];
  signal?: AbortSignal;
  resolver?: Resolver;
}

/** A built-in's outcome. */
export interface BuiltinOutcome {
  ok: boolean;
  content: string;
}

function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? "")?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // An unknown charset label: UTF-8 is the best guess.
    }
  }
  return body.toString("utf8").replace(/\uFFFD+$/, "");
}

/** Reads a web page under the plugin address rules and returns its readable text. */
export async function fetchWebpage(context: WebContext, input: { url: string; maxCharacters?: number }): Promise<BuiltinOutcome> {
  const limit = Math.min(Math.max(input.maxCharacters ?? DEFAULT_PAGE_CHARACTERS, 100), MAX_PAGE_CHARACTERS);
  let url: URL;
  try {
    url = new URL(input.url.trim());
  } catch {
    return { ok: false, content: `"${input.url}" is not a valid URL; give a full address starting with http:// or https://` };
  }
  try {
    const response = await guardedFetch(
      {
        method: "GET",
        url: url.toString(),
        headers: { accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1", "user-agent": "Parley-Plugin/1.0 (fetch_webpage)" },
      },
      {
        policy: { allowPrivateNetwork: context.config.allowPrivateNetwork, allowedHosts: context.config.allowedHosts },
        timeoutMs: context.config.timeoutMs,
        maxBytes: Math.max(context.config.maxResponseBytes, PAGE_DOWNLOAD_BYTES),
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.resolver ? { resolver: context.resolver } : {}),
      },
    );
    if (response.status < 200 || response.status >= 300) return { ok: false, content: `${url} answered HTTP ${response.status}` };
    const contentType = response.headers["content-type"] ?? "";
    const raw = decode(response.body, contentType);
    let title = "";
    let text: string;
    if (/html|xml/i.test(contentType) || (!contentType && /^\s*</.test(raw))) {
      ({ title, text } = htmlToText(raw));
    } else if (/^text\/|json|javascript|csv/i.test(contentType)) {
      text = raw.trim();
    } else {
      return { ok: false, content: `${url} is not a text page (content type ${contentType || "unknown"})` };
    }
    const cut = text.length > limit || response.truncated;
    const shown = text.length > limit ? text.slice(0, limit) : text;
    const lines = [title ? `Title: ${title}` : "", `URL: ${response.url}`, "", shown || "(the page has no readable text)"];
    if (cut) lines.push("", `[truncated: the page is longer than ${limit} characters; only the beginning is shown]`);
    return { ok: true, content: lines.filter((line, index) => index > 0 || line !== "").join("\n") };
  } catch (error) {
    const message = error instanceof PluginNetworkError ? error.message : (error as Error).message;
    return { ok: false, content: `The page could not be fetched: ${message}` };
  }
}

interface SearxngResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
}

/** Searches the web with the configured provider (a SearXNG instance's JSON API). */
export async function webSearch(context: WebContext, input: { query: string; count?: number; language?: string }): Promise<BuiltinOutcome> {
  const provider = context.config.webSearch;
  if (!provider) {
    return {
      ok: false,
      content: "Web search is not configured on this Parley server, so no search was made. (The owner can set PARLEY_WEB_SEARCH_URL to a SearXNG instance.)",
    };
  }
  const query = input.query.trim();
  if (!query) return { ok: false, content: "Invalid arguments for web_search: `query` must not be empty." };
  const count = Math.min(Math.max(input.count ?? 5, 1), 10);
  const url = new URL(`${provider.url}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  if (input.language) url.searchParams.set("language", input.language);
  const headers: Record<string, string> = { accept: "application/json", "user-agent": "Parley-Plugin/1.0 (web_search)" };
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  try {
    // The operator configured this endpoint (often a SearXNG on this host), so its host is trusted;
    // redirects elsewhere still follow the rules.
    const response = await guardedFetch(
      { method: "GET", url: url.toString(), headers },
      {
        policy: { allowPrivateNetwork: true, allowedHosts: [url.host.toLowerCase(), url.hostname.replace(/^\[|\]$/g, "").toLowerCase()] },
        timeoutMs: context.config.timeoutMs,
        maxBytes: Math.max(context.config.maxResponseBytes, 1024 * 1024),
        ...(context.signal ? { signal: context.signal } : {}),
      },
    );
    if (response.status < 200 || response.status >= 300)
      return { ok: false, content: `The search provider answered HTTP ${response.status}; try again later.` };
    let payload: { results?: SearxngResult[]; answers?: unknown[] };
    try {
      payload = JSON.parse(response.body.toString("utf8")) as typeof payload;
    } catch {
      return { ok: false, content: "The search provider sent an answer that is not JSON (is its JSON format enabled?)." };
    }
    const results = (payload.results ?? []).filter((result) => typeof result.url === "string").slice(0, count);
    const answers = (payload.answers ?? []).map((answer) => (typeof answer === "string" ? answer : (answer as { answer?: string }).answer)).filter(Boolean);
    if (results.length === 0 && answers.length === 0) return { ok: true, content: `No results for "${query}".` };
    const lines = [`Search results for "${query}":`];
    for (const answer of answers) lines.push(`Answer: ${answer}`);
    results.forEach((result, index) => {
      lines.push("", `${index + 1}. ${(result.title ?? "").trim() || result.url}`, `   ${result.url}`);
      if (result.publishedDate) lines.push(`   Published: ${result.publishedDate}`);
      if (result.content) lines.push(`   ${result.content.replace(/\s+/g, " ").trim()}`);
    });
    return { ok: true, content: lines.join("\n") };
  } catch (error) {
    const message = error instanceof PluginNetworkError ? error.message : (error as Error).message;
    return { ok: false, content: `The search failed: ${message}` };
  }
}
