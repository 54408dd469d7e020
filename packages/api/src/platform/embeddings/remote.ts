import type { Embedder, EmbeddingKind } from "./types";
import { EmbeddingError, normalize } from "./types";

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
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Per-request timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Decode = (body: unknown) => number[][];

function createRemoteEmbedder(
  options: RemoteEmbedderOptions,
  wire: { idPrefix: string; path: string; request: (input: string[]) => unknown; decode: Decode },
): Embedder {
  const fetchImpl = options.fetch ?? fetch;
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const url = `${options.baseUrl.replace(/\/+$/, "")}${wire.path}`;
  const prefix = (kind: EmbeddingKind) => (kind === "query" ? options.queryPrefix : options.documentPrefix) ?? "";
  return {
    id: `${wire.idPrefix}:${options.model}`,
    dimensions: options.dimensions,
    label: options.model,
    async embed(texts, { kind, signal }) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const input = texts.slice(start, start + batchSize).map((text) => prefix(kind) + text);
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
          throw new EmbeddingError(`embeddings request to ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (!response.ok) {
          const detail = (await response.text().catch(() => "")).slice(0, 300);
          throw new EmbeddingError(`embeddings request to ${url} answered ${response.status}: ${detail}`, response.status);
        }
        const rows = wire.decode(await response.json().catch(() => null));
        if (rows.length !== input.length) throw new EmbeddingError(`expected ${input.length} embeddings, got ${rows.length}`);
        for (const row of rows) {
          if (!row || row.length !== options.dimensions) {
            throw new EmbeddingError(`model ${options.model} returned ${row?.length ?? 0} dimensions, configured ${options.dimensions}`);
          }
          // Cosine similarity is then a dot product, whatever the provider's own normalisation.
          vectors.push(normalize(Float32Array.from(row)));
        }
      }
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
