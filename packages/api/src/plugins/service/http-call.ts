import type { Config } from "../../config";
import { bodyText, guardedFetch, PluginNetworkError, type Resolver } from "./network";
import { coerceObject, isPlainObject, kindOf, type PluginParameter } from "./parameters";

/** What an HTTP call needs of a plugin. */
export interface HttpPluginSpec {
  name: string;
  requestUrl: string;
  requestMethod: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  requestParams: PluginParameter[];
  headers: Record<string, string>;
}

/** The request as it was sent, for the test-run panel. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** The outcome of one call: ok with the answer, or a message the model (or the person testing) can read. */
export interface HttpCallResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  request: SentRequest | null;
  response: { contentType: string | null; body: string; truncated: boolean } | null;
  error: string | null;
}

/** Header values shown in answers: enough to recognise, never enough to use. */
export function maskSecret(value: string): string {
  return value.length > 12 ? `****${value.slice(-4)}` : "****";
}

/** Plugin headers with their values masked. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, maskSecret(value)]));
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Parses the model's argument text: a JSON object (empty text counts as `{}`). */
export function parseArguments(text: string): { value: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `the arguments are not valid JSON (${(error as Error).message})` };
  }
  if (!isPlainObject(parsed)) return { error: "the arguments must be a JSON object" };
  return { value: parsed };
}

/** Where each argument goes, following its declared location or the method's habit. */
export function buildRequest(
  spec: HttpPluginSpec,
  args: Record<string, unknown>,
): { method: string; url: string; headers: Record<string, string>; body?: string } {
  let url = spec.requestUrl;
  const query: Array<[string, string]> = [];
  const body: Record<string, unknown> = {};
  const headers: Record<string, string> = { accept: "application/json, text/plain;q=0.9, */*;q=0.5", "user-agent": "Parley-Plugin/1.0" };
  let hasBody = false;
  for (const parameter of spec.requestParams) {
    const value = args[parameter.name];
    if (value === undefined) continue;
    const placeholder = `{${parameter.name}}`;
    const location = parameter.location ?? (url.includes(placeholder) ? "path" : BODY_METHODS.has(spec.requestMethod) ? "body" : "query");
    if (location === "path") url = url.split(placeholder).join(encodeURIComponent(scalarText(value)));
    else if (location === "header") headers[parameter.name.toLowerCase()] = scalarText(value);
    else if (location === "query") {
      if (Array.isArray(value) && kindOf(parameter.type) === "array" && !parameter.children?.length) {
        for (const item of value) query.push([parameter.name, scalarText(item)]);
      } else query.push([parameter.name, scalarText(value)]);
    } else {
      body[parameter.name] = value;
      hasBody = true;
    }
  }
  const target = new URL(url);
  for (const [name, value] of query) target.searchParams.append(name, value);
  for (const [name, value] of Object.entries(spec.headers)) headers[name.toLowerCase()] = value;
  if (BODY_METHODS.has(spec.requestMethod) || hasBody) {
    headers["content-type"] = "application/json";
    return { method: spec.requestMethod, url: target.toString(), headers, body: JSON.stringify(body) };
  }
  return { method: spec.requestMethod, url: target.toString(), headers };
}

function scalarText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Calls an HTTP plugin with arguments the model (or the test-run panel) gave: checks them,
 * fills defaults, sends the request under the address, time and size rules. Never throws.
 */
export async function callHttpPlugin(
  spec: HttpPluginSpec,
  argumentsInput: string | Record<string, unknown>,
  options: { config: Config["plugins"]; signal?: AbortSignal; resolver?: Resolver },
): Promise<HttpCallResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, request: SentRequest | null = null): HttpCallResult => ({
    ok: false,
    status: null,
    durationMs: elapsed(),
    request,
    response: null,
    error,
  });
  const parsed = typeof argumentsInput === "string" ? parseArguments(argumentsInput) : { value: argumentsInput };
  if ("error" in parsed) return failed(`Invalid arguments for ${spec.name}: ${parsed.error}.`);
  const checked = coerceObject(spec.requestParams, parsed.value);
  if (checked.errors.length > 0) return failed(`Invalid arguments for ${spec.name}: ${checked.errors.join("; ")}.`);

  let built: ReturnType<typeof buildRequest>;
  try {
    built = buildRequest(spec, checked.value);
  } catch {
    return failed(`The plugin's request URL is not valid: ${spec.requestUrl}`);
  }
  const shown: SentRequest = {
    method: built.method,
    url: built.url,
    headers: { ...built.headers, ...maskHeaders(Object.fromEntries(Object.entries(spec.headers).map(([name, value]) => [name.toLowerCase(), value]))) },
    body: built.body ?? null,
  };
  try {
    const response = await guardedFetch(built, {
      policy: { allowPrivateNetwork: options.config.allowPrivateNetwork, allowedHosts: options.config.allowedHosts },
      timeoutMs: options.config.timeoutMs,
      maxBytes: options.config.maxResponseBytes,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
    const text = bodyText(response);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      status: response.status,
      durationMs: elapsed(),
      request: shown,
      response: { contentType: response.headers["content-type"] ?? null, body: text, truncated: response.truncated },
      error: ok ? null : `${spec.name} answered HTTP ${response.status}`,
    };
  } catch (error) {
    const message = error instanceof PluginNetworkError ? error.message : (error as Error).message;
    const prefix = error instanceof PluginNetworkError && error.reason === "timeout" ? `${spec.name} timed out` : `${spec.name} could not be called`;
    return failed(`${prefix}: ${message}`, shown);
  }
}

/** The text the model reads for a call's outcome. */
export function resultText(result: HttpCallResult, maxBytes: number): string {
  if (!result.response) return result.error ?? "The plugin failed.";
  const note = result.response.truncated ? `\n[truncated: the answer was longer than ${maxBytes} bytes; only the first ${maxBytes} bytes are shown]` : "";
  if (!result.ok) return `${result.error}:\n${result.response.body}${note}`;
  return `${result.response.body}${note}`;
}
