import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One `/rerank` request as the fake received it. */
export interface RerankFakeRequest {
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** What the fake answers next. */
export type RerankFakeMode = "ok" | "fail" | "garbage" | "hang";

/** A local rerank server speaking TEI's or Cohere's (and Jina's) `POST /rerank`. */
export interface RerankFake {
  /** Base URL to configure (the server answers `{url}/rerank`). */
  url: string;
  requests: RerankFakeRequest[];
  /** How the following requests are answered: `fail` 500s, `garbage` answers an index out of range, `hang` never answers. */
  setMode(mode: RerankFakeMode): void;
  close(): Promise<void>;
}

/** Options of {@link startRerankFake}. */
export interface RerankFakeOptions {
  /** `tei` reads `texts` and answers `[{ index, score }]`; `cohere` reads `documents` and answers `{ results: [{ index, relevance_score }] }`. */
  format: "tei" | "cohere";
  /** The bearer key every request must carry; without it, any or none is accepted. */
  apiKey?: string;
  /** Relevance of a document to a query; by default the share of the query's words the document holds. */
  score?: (query: string, document: string) => number;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function overlap(query: string, document: string): number {
  const wanted = new Set(words(query));
  if (wanted.size === 0) return 0;
  const held = new Set(words(document));
  return [...wanted].filter((word) => held.has(word)).length / wanted.size;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const chunk of request) raw += String(chunk);
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * Starts a rerank server on 127.0.0.1. It checks the body the format requires (422 as TEI
 * answers a bad body, 400 as Cohere does) and the bearer key (401), and scores with `score`.
 */
export async function startRerankFake(options: RerankFakeOptions): Promise<RerankFake> {
  const requests: RerankFakeRequest[] = [];
  let mode: RerankFakeMode = "ok";
  const score = options.score ?? overlap;
  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    void (async () => {
      const body = await readJson(request);
      if (request.method !== "POST" || request.url !== "/rerank") return send(404, { error: "not found" });
      const authorization = request.headers.authorization;
      requests.push({ authorization, body: (body ?? {}) as Record<string, unknown> });
      if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
        return send(401, options.format === "tei" ? { error: "Unauthorized", error_type: "unauthorized" } : { message: "invalid api token" });
      }
      const fields = (body ?? {}) as { query?: unknown; texts?: unknown; documents?: unknown; model?: unknown };
      const documents = options.format === "tei" ? fields.texts : fields.documents;
      if (typeof fields.query !== "string" || !isStrings(documents) || (options.format === "cohere" && typeof fields.model !== "string")) {
        return options.format === "tei"
          ? send(422, { error: "Failed to deserialize the JSON body", error_type: "validation" })
          : send(400, { message: "invalid request: query, model and documents are required" });
      }
      if (mode === "hang") return;
      if (mode === "fail") return send(500, { error: "model crashed" });
      const scored = documents
        .map((document, index) => ({ index, score: score(fields.query as string, document) }))
        .sort((left, right) => right.score - left.score);
      if (mode === "garbage") scored.push({ index: documents.length + 5, score: 0.5 });
      if (options.format === "tei") return send(200, scored);
      return send(200, { id: "fake", results: scored.map((entry) => ({ index: entry.index, relevance_score: entry.score })), meta: {} });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
