import { requestMethods } from "../../schemas";
import { isPlainObject, type PluginParameter } from "../parameters";
import { exampleFromText, nameFromUrl, nameWarnings, type ParseResult, parseFailure, parametersFromExample } from "./draft";
import { ShellWordsError, splitShellWords } from "./shell-words";

// Options that take a value, by every spelling; the rest of curl's options are switches.
const VALUED = new Map<string, string>([
  ["-X", "request"],
  ["--request", "request"],
  ["-H", "header"],
  ["--header", "header"],
  ["-d", "data"],
  ["--data", "data"],
  ["--data-raw", "data"],
  ["--data-binary", "data"],
  ["--data-ascii", "data"],
  ["--json", "json"],
  ["--data-urlencode", "urlencode"],
  ["-F", "form"],
  ["--form", "form"],
  ["--form-string", "form"],
  ["-u", "user"],
  ["--user", "user"],
  ["-A", "agent"],
  ["--user-agent", "agent"],
  ["-e", "referer"],
  ["--referer", "referer"],
  ["-b", "cookie"],
  ["--cookie", "cookie"],
  ["--url", "url"],
  ["--oauth2-bearer", "bearer"],
  ["-T", "upload"],
  ["--upload-file", "upload"],
  ["-o", "skip"],
  ["--output", "skip"],
  ["-m", "skip"],
  ["--max-time", "skip"],
  ["--connect-timeout", "skip"],
  ["--retry", "skip"],
  ["--retry-delay", "skip"],
  ["--retry-max-time", "skip"],
  ["-x", "skip"],
  ["--proxy", "skip"],
  ["-w", "skip"],
  ["--write-out", "skip"],
  ["--cacert", "skip"],
  ["--capath", "skip"],
  ["-E", "skip"],
  ["--cert", "skip"],
  ["--key", "skip"],
  ["-c", "skip"],
  ["--cookie-jar", "skip"],
  ["-r", "skip"],
  ["--range", "skip"],
  ["--resolve", "skip"],
  ["--connect-to", "skip"],
  ["--limit-rate", "skip"],
  ["--max-redirs", "skip"],
  ["--interface", "skip"],
  ["-K", "skip"],
  ["--config", "skip"],
  ["-D", "skip"],
  ["--dump-header", "skip"],
  ["-U", "skip"],
  ["--proxy-user", "skip"],
]);

// Headers Parley sets itself for every call.
const DROPPED_HEADERS = new Set(["content-length", "host", "accept-encoding", "connection", "content-type"]);

/** Turns a curl command (as copied from API docs or a browser) into a plugin draft. */
export function parseCurl(command: string): ParseResult {
  let words: string[];
  try {
    words = splitShellWords(command.trim().replace(/^\$\s+/, ""));
  } catch (error) {
    if (error instanceof ShellWordsError) throw parseFailure("plugin_parse_quote_unclosed");
    throw error;
  }
  if (words[0] !== "curl" && !words[0]?.endsWith("/curl") && words[0] !== "curl.exe") throw parseFailure("plugin_parse_not_curl");

  let method: string | undefined;
  let url: string | undefined;
  let queryFromData = false;
  let json = false;
  const headers: Array<[string, string]> = [];
  // In command-line order; `encoded` marks --data-urlencode parts.
  const data: Array<{ value: string; encoded: boolean }> = [];

  const apply = (kind: string, option: string, value: string | undefined) => {
    if (value === undefined) throw parseFailure("plugin_parse_curl_option_value", { option });
    switch (kind) {
      case "request":
        method = value.toUpperCase();
        break;
      case "header": {
        const colon = value.indexOf(":");
        if (colon > 0) headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()]);
        break;
      }
      case "json":
        json = true;
        data.push({ value, encoded: false });
        break;
      case "data":
      case "urlencode":
        data.push({ value, encoded: kind === "urlencode" });
        break;
      case "form":
      case "upload":
        throw parseFailure("plugin_parse_curl_body");
      case "user":
        headers.push(["Authorization", `Basic ${Buffer.from(value).toString("base64")}`]);
        break;
      case "bearer":
        headers.push(["Authorization", `Bearer ${value}`]);
        break;
      case "agent":
        headers.push(["User-Agent", value]);
        break;
      case "referer":
        headers.push(["Referer", value]);
        break;
      case "cookie":
        if (value.includes("=")) headers.push(["Cookie", value]);
        break;
      case "url":
        url ??= value;
        break;
    }
  };

  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    if (["|", "||", "&&", ";", ">", ">>"].includes(word)) break;
    if (word.startsWith("--")) {
      const equals = word.indexOf("=");
      const name = equals > 0 ? word.slice(0, equals) : word;
      const kind = VALUED.get(name);
      if (kind) apply(kind, name, equals > 0 ? word.slice(equals + 1) : words[++index]);
      else if (name === "--get") queryFromData = true;
      else if (name === "--head") throw parseFailure("plugin_parse_method_unsupported", { method: "HEAD" });
      continue;
    }
    if (word.startsWith("-") && word.length > 1) {
      // Short switches combine (-sSL); a valued one takes the rest of the word or the next word.
      for (let at = 1; at < word.length; at++) {
        const option = `-${word[at]}`;
        const kind = VALUED.get(option);
        if (kind) {
          const rest = word.slice(at + 1);
          apply(kind, option, rest !== "" ? rest : words[++index]);
          break;
        }
        if (option === "-G") queryFromData = true;
        if (option === "-I") throw parseFailure("plugin_parse_method_unsupported", { method: "HEAD" });
      }
      continue;
    }
    url ??= word;
  }

  if (!url) throw parseFailure("plugin_parse_curl_no_url");
  let target: URL;
  try {
    target = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    throw parseFailure("plugin_parse_url_invalid", { url });
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") throw parseFailure("plugin_parse_url_invalid", { url });

  const requestParams: PluginParameter[] = [];
  const queryValues = new Map<string, string[]>();
  const addQuery = (name: string, value: string) => queryValues.set(name, [...(queryValues.get(name) ?? []), value]);
  for (const [name, value] of target.searchParams) addQuery(name, value);

  const contentType = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  const hasBody = data.length > 0;
  if (queryFromData) {
    for (const { value: item, encoded } of data) {
      if (!encoded) for (const [name, value] of new URLSearchParams(item)) addQuery(name, value);
      else {
        // --data-urlencode takes name=content with the content not yet encoded.
        const equals = item.indexOf("=");
        if (equals > 0) addQuery(item.slice(0, equals), item.slice(equals + 1));
      }
    }
  } else if (hasBody) {
    if (data.length > 1 || data[0]!.encoded) throw parseFailure("plugin_parse_curl_body");
    let body: unknown;
    try {
      body = JSON.parse(data[0]!.value);
    } catch {
      throw parseFailure("plugin_parse_curl_body");
    }
    if (!isPlainObject(body)) throw parseFailure("plugin_parse_curl_body");
    if (contentType && !/json/i.test(contentType) && !json) throw parseFailure("plugin_parse_curl_body");
    requestParams.push(...parametersFromExample(body, "body"));
  }
  for (const [name, values] of queryValues) {
    const parameter: PluginParameter =
      values.length > 1
        ? { name, type: "array", itemType: "string", description: "", required: true, default: values, location: "query" }
        : { ...parametersFromExample({ [name]: exampleFromText(values[0]!) }, "query")[0]! };
    requestParams.push(parameter);
  }

  const requestMethod = (method ?? (hasBody && !queryFromData ? "POST" : "GET")) as (typeof requestMethods)[number];
  if (!requestMethods.includes(requestMethod)) throw parseFailure("plugin_parse_method_unsupported", { method: requestMethod });

  const keptHeaders: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (DROPPED_HEADERS.has(name.toLowerCase())) continue;
    keptHeaders[name] = value;
  }
  target.search = "";
  target.hash = "";
  const requestUrl = target.toString();
  return {
    draft: {
      name: nameFromUrl(target),
      description: "",
      avatar: "",
      requestUrl,
      requestMethod,
      requestParams,
      responseParams: [],
      headers: keptHeaders,
    },
    operations: [],
    warnings: nameWarnings(requestParams),
  };
}
