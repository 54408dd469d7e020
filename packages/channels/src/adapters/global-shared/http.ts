import { ChannelError } from "../../types";

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** True when `value` is a plain JSON object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses `bytes` as UTF-8 JSON; undefined when they are not JSON. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/** The value at `key` when it is a string, else undefined. */
export function stringAt(object: unknown, key: string): string | undefined {
  if (!isObject(object)) return undefined;
  const value = object[key];
  return typeof value === "string" ? value : undefined;
}

/** The value at `key` when it is a finite number, else undefined. */
export function numberAt(object: unknown, key: string): number | undefined {
  if (!isObject(object)) return undefined;
  const value = object[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The value at `key` when it is an object, else undefined. */
export function objectAt(object: unknown, key: string): JsonObject | undefined {
  if (!isObject(object)) return undefined;
  const value = object[key];
  return isObject(value) ? value : undefined;
}

/** The value at `key` when it is an array, else an empty array. */
export function arrayAt(object: unknown, key: string): unknown[] {
  if (!isObject(object)) return [];
  const value = object[key];
  return Array.isArray(value) ? value : [];
}

/**
 * Calls the platform; a network failure (refused connection, reset, timeout) becomes a retryable
 * {@link ChannelError} so the job queue tries again later.
 */
export async function callPlatform(fetcher: typeof fetch, url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetcher(url, { ...init, signal: init.signal ?? AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new ChannelError(`${what}: ${error instanceof Error ? error.message : String(error)}`, { retryable: true });
  }
}

/** The response body as JSON, or undefined when it is empty or not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A `Retry-After` header in milliseconds (seconds or an HTTP date), if present. */
export function retryAfterHeaderMs(response: Response, now: number): number | undefined {
  const value = response.headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
