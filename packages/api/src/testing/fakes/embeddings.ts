import { createServer, type IncomingMessage, type Server } from "node:http";

/** One `/v1/embeddings` request as the fake received it. */
export interface EmbeddingsRequest {
  authorization: string | undefined;
  model: string;
  input: string[];
}

/** A local OpenAI-compatible embeddings server. */
export interface EmbeddingsFake {
  /** Base URL to configure, ending in `/v1`. */
  url: string;
  dimensions: number;
  requests: EmbeddingsRequest[];
  /** Makes the next `count` requests answer 500 (or `status`, with `Retry-After` when given) with OpenAI's error shape. */
  failNext(count: number, failure?: { status?: number; retryAfter?: string }): void;
  /** Holds each answer this long, as a busy model would (0: answer at once). */
  setDelay(ms: number): void;
  /** Most requests the fake held at once since it started or since `resetInFlight`. */
  readonly maxInFlight: number;
  resetInFlight(): void;
  close(): Promise<void>;
}

/**
 * Concepts the fake "understands": words of one concept land on the same axis, so texts that
 * share a meaning but no word are close, as with a real semantic model. Anything else spreads
 * over the remaining axes by a hash of the word.
 */
const CONCEPTS: ReadonlyArray<readonly string[]> = [
  ["refund", "refunds", "money", "reimburse", "reimbursed", "repay", "退款", "退钱"],
  ["shipping", "delivery", "deliver", "parcel", "courier", "dispatch", "发货", "快递"],
  ["warranty", "guarantee", "repair", "defect", "defects", "保修"],
  ["password", "login", "sign", "credentials", "account", "密码", "登录"],
];

function vectorOf(text: string, dimensions: number): number[] {
  const vector: number[] = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const concept = CONCEPTS.findIndex((members) => members.some((member) => word === member || word.includes(member)));
    if (concept >= 0) vector[concept]! += 3;
    else {
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
      vector[CONCEPTS.length + (hash % (dimensions - CONCEPTS.length))]! += 0.5;
    }
  }
  if (!vector.some((value) => value !== 0)) vector[dimensions - 1] = 1;
  return vector;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let raw = "";
  for await (const part of request) raw += part;
  return JSON.parse(raw);
}

/**
 * Starts a server speaking OpenAI's `POST /v1/embeddings` (bearer key checked, `input` as a
 * string or a list, rows answered with their `index`, usage counted) on 127.0.0.1.
 */
export async function startEmbeddingsFake(options: { apiKey?: string; dimensions?: number } = {}): Promise<EmbeddingsFake> {
  const dimensions = options.dimensions ?? 16;
  const requests: EmbeddingsRequest[] = [];
  let failures = 0;
  let failure: { status?: number; retryAfter?: string } = {};
  let delayMs = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer(async (request, response) => {
    response.setHeader("content-type", "application/json");
    const fail = (status: number, message: string, type: string) => {
      response.statusCode = status;
      response.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
    };
    if (request.method !== "POST" || request.url !== "/v1/embeddings") return fail(404, "Not found", "invalid_request_error");
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) return fail(401, "Incorrect API key provided", "invalid_request_error");
    const body = (await readJson(request)) as { model?: string; input?: string | string[] };
    const input = typeof body.input === "string" ? [body.input] : (body.input ?? []);
    requests.push({ authorization: request.headers.authorization, model: body.model ?? "", input });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    inFlight -= 1;
    if (failures > 0) {
      failures -= 1;
      if (failure.retryAfter !== undefined) response.setHeader("retry-after", failure.retryAfter);
      if (failure.status === 429) return fail(429, "Rate limit reached for requests", "requests");
      if (failure.status !== undefined && failure.status < 500)
        return fail(failure.status, "Invalid 'input': the request is malformed", "invalid_request_error");
      return fail(failure.status ?? 500, "The server had an error while processing your request", "server_error");
    }
    const data = input.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text, dimensions) }));
    const tokens = input.reduce((total, text) => total + Math.ceil(text.length / 4), 0);
    response.end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    dimensions,
    requests,
    failNext(count, next = {}) {
      failures = count;
      failure = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    resetInFlight() {
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
