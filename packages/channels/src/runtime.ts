import type { AdapterIO, InboundRequest, IssuedToken, KeyValueStore, TokenCache } from "./types";

/** Reads a Fetch request once into the shape adapters verify. */
export async function readInbound(request: Request): Promise<InboundRequest> {
  return {
    method: request.method.toUpperCase(),
    url: new URL(request.url),
    headers: request.headers,
    body: new Uint8Array(await request.arrayBuffer()),
  };
}

/** A process-local {@link KeyValueStore}, for tests and single-process use. */
export function memoryKeyValueStore(now: () => number = Date.now): KeyValueStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      entries.set(key, { value, expiresAt: ttlSeconds === undefined ? Number.POSITIVE_INFINITY : now() + ttlSeconds * 1000 });
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (live(key)) return false;
      entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
      return true;
    },
    async delete(key) {
      entries.delete(key);
    },
  };
}

/** Tokens are renewed this long before the platform says they expire. */
export const TOKEN_REFRESH_MARGIN_SECONDS = 300;

/**
 * A {@link TokenCache} over a key-value store: one fetch at a time per key in this process
 * (concurrent callers share it), renewed {@link TOKEN_REFRESH_MARGIN_SECONDS} early.
 */
export function createTokenCache(kv: KeyValueStore): TokenCache {
  const inFlight = new Map<string, Promise<string>>();
  const storeKey = (key: string) => `token:${key}`;
  return {
    async get(key, issue: () => Promise<IssuedToken>) {
      const cached = await kv.get(storeKey(key));
      if (cached) return cached;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const fetching = (async () => {
        try {
          const issued = await issue();
          const ttl = Math.max(1, issued.expiresInSeconds - Math.min(TOKEN_REFRESH_MARGIN_SECONDS, Math.floor(issued.expiresInSeconds / 2)));
          await kv.set(storeKey(key), issued.token, ttl);
          return issued.token;
        } finally {
          inFlight.delete(key);
        }
      })();
      inFlight.set(key, fetching);
      return fetching;
    },
    async invalidate(key) {
      await kv.delete(storeKey(key));
    },
  };
}

/** An {@link AdapterIO} with in-memory state, for tests and tools. */
export function memoryIO(apiBase: string, options: { fetch?: typeof fetch; now?: () => number } = {}): AdapterIO {
  const now = options.now ?? Date.now;
  const kv = memoryKeyValueStore(now);
  return { fetch: options.fetch ?? fetch, apiBase: apiBase.replace(/\/+$/, ""), now, kv, tokens: createTokenCache(kv) };
}

const encoder = new TextEncoder();

/** Length of `text` in the unit a platform counts. */
export function measure(text: string, unit: "chars" | "utf8-bytes"): number {
  return unit === "chars" ? [...text].length : encoder.encode(text).length;
}

/**
 * Cuts `text` into parts of at most `max` (characters or UTF-8 bytes), preferring paragraph,
 * line, sentence and word boundaries, never splitting a character.
 */
export function splitText(text: string, max: { unit: "chars" | "utf8-bytes"; value: number }): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest && measure(rest, max.unit) > max.value) {
    const chars = [...rest];
    // The longest prefix that fits.
    let fit = 0;
    let size = 0;
    for (const char of chars) {
      const next = size + measure(char, max.unit);
      if (next > max.value) break;
      size = next;
      fit += 1;
    }
    const head = chars.slice(0, fit).join("");
    let cut = -1;
    for (const boundary of ["\n\n", "\n", "。", "！", "？", ". ", "! ", "? ", "；", "; ", "，", ", ", " "]) {
      const at = head.lastIndexOf(boundary);
      if (at > head.length / 3) {
        cut = at + boundary.length;
        break;
      }
    }
    const piece = cut > 0 ? head.slice(0, cut) : head;
    parts.push(piece.trim());
    rest = rest.slice(piece.length).trim();
  }
  if (rest) parts.push(rest);
  return parts.filter((part) => part.length > 0);
}

/** Constant-time comparison of two strings (false when lengths differ). */
export { safeEqual } from "./crypto";
