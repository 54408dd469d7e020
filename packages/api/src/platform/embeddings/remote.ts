import type { Embedder, EmbeddingKind } from "./types";
import { EmbeddingError, normalize } from "./types";
import { createEmbeddingBatcher } from "./batcher";

/** Settings shared by the remote embedders. */
export interface RemoteEmbedderOptions {
  /** Base URL: `https://api.openai.com/v1` for OpenAI-compatible servers, `http://host:11434` for Ollama. */
  baseUrl: string;
  model: string;
  /** Vector size the model returns; answers of another size are refused. */
  dimensions: number;
  apiKey?: string;
  /** Prefixes some models expect (e5: `query: ` and `passage: `). */
  queryPrefix?: string;
  documentPrefix?: string;
  /** Texts per request (default 32). */
  batchSize?: number;
  /** Document batches in flight at once (default 2); queries do not count against it. */
  concurrency?: number;
  /** How long a partial document batch waits for texts of other files (default 10 ms). */
  batchWaitMs?: number;
  /** Retries of a batch answered 429 or 5xx, or whose connection failed (default 4). */
  retries?: number;
  /** First backoff between retries, doubled each time, when the server sends no Retry-After (default 500 ms). */
  retryBaseMs?: number;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Decode = (body: unknown) => number[][];

/** Longest wait between two attempts of one batch, whatever the server asks. */
const MAX_RETRY_WAIT_MS = 60_000;

/** A failed attempt: whether it may be retried with the same batch, and after how long the server asked. */
class AttemptError extends EmbeddingError {
  constructor(
    message: string,
    status: number | undefined,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message, status);
  }
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterOf(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function createRemoteEmbedder(
  options: RemoteEmbedderOptions,
  wire: { idPrefix: string; path: string; request: (input: string[]) => unknown; decode: Decode },
): Embedder {
  const fetchImpl = options.fetch ?? fetch;
  const batchSize = Math.max(1, options.batchSize ?? 32);
  const retries = Math.max(0, options.retries ?? 4);
  const retryBaseMs = options.retryBaseMs ?? 500;
  const url = `${options.baseUrl.replace(/\/+$/, "")}${wire.path}`;
  const prefix = (kind: EmbeddingKind) => (kind === "query" ? options.queryPrefix : options.documentPrefix) ?? "";

  async function attempt(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify(wire.request(input)),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      // A reset, refused or timed-out connection may pass; the caller's own abort does not.
      throw new AttemptError(`embeddings request to ${url} failed: ${error instanceof Error ? error.message : String(error)}`, undefined, !signal?.aborted);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => "")).slice(0, 300);
      const retryable = response.status === 429 || response.status >= 500;
      throw new AttemptError(
        `embeddings request to ${url} answered ${response.status}: ${detail}`,
        response.status,
        retryable,
        retryAfterOf(response.headers.get("retry-after")),
      );
    }
    const rows = wire.decode(await response.json().catch(() => null));
    if (rows.length !== input.length) throw new EmbeddingError(`expected ${input.length} embeddings, got ${rows.length}`);
    return rows.map((row) => {
      if (!row || row.length !== options.dimensions) {
        throw new EmbeddingError(`model ${options.model} returned ${row?.length ?? 0} dimensions, configured ${options.dimensions}`);
      }
      // Cosine similarity is then a dot product, whatever the provider's own normalisation.
      return normalize(Float32Array.from(row));
    });
  }

  /** One batch, retried whole: splitting it would multiply requests against a server already struggling. */
  async function post(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    for (let tried = 0; ; tried += 1) {
      try {
        return await attempt(input, signal);
      } catch (error) {
        if (!(error instanceof AttemptError) || !error.retryable || tried >= retries || signal?.aborted) throw error;
        const backoff = retryBaseMs * 2 ** tried * (0.75 + Math.random() * 0.5);
        await sleep(Math.min(MAX_RETRY_WAIT_MS, error.retryAfterMs ?? backoff), signal);
      }
    }
  }

  const batcher = createEmbeddingBatcher({
    batchSize,
    concurrency: options.concurrency ?? 2,
    waitMs: options.batchWaitMs ?? 10,
    send: (texts) => post(texts),
  });

  return {
    id: `${wire.idPrefix}:${options.model}`,
    dimensions: options.dimensions,
    label: options.model,
    async embed(texts, { kind, signal }) {
      const input = texts.map((text) => prefix(kind) + text);
      if (kind === "document") return batcher.submit(input, signal);
      // A question is answered while someone waits: it goes straight out, never behind ingestion.
      const vectors: Float32Array[] = [];
      for (let start = 0; start < input.length; start += batchSize) vectors.push(...(await post(input.slice(start, start + batchSize), signal)));
      return vectors;
    },
  };
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === "number");
}

/**
 * An embedder over the OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, TEI, vLLM,
 * Xinference, Ollama's `/v1`): sends `{ model, input: string[], encoding_format: "float" }` and
 * reads `data[].embedding`, placed by `data[].index`.
 */
export function createOpenAiCompatibleEmbedder(options: RemoteEmbedderOptions): Embedder {
  return createRemoteEmbedder(options, {
    idPrefix: "openai-compatible",
    path: "/embeddings",
    request: (input) => ({ model: options.model, input, encoding_format: "float" }),
    decode(body) {
      const data = (body as { data?: unknown } | null)?.data;
      if (!Array.isArray(data)) throw new EmbeddingError("embeddings answer has no data array");
      const rows: number[][] = [];
      data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
        if (!isNumberArray(item?.embedding)) throw new EmbeddingError("embeddings answer holds a non-numeric embedding");
        rows[typeof item.index === "number" ? item.index : position] = item.embedding;
      });
      return rows;
    },
  });
}

/**
 * An embedder over Ollama's native `POST {baseUrl}/api/embed`: sends `{ model, input: string[] }`
 * and reads `embeddings` (one array per input, in order).
 */
export function createOllamaEmbedder(options: RemoteEmbedderOptions): Embedder {
  return createRemoteEmbedder(options, {
    idPrefix: "ollama",
    path: "/api/embed",
    request: (input) => ({ model: options.model, input }),
    decode(body) {
      const embeddings = (body as { embeddings?: unknown } | null)?.embeddings;
      if (!Array.isArray(embeddings) || !embeddings.every(isNumberArray)) throw new EmbeddingError("Ollama answer has no embeddings");
      return embeddings;
    },
  });
}
