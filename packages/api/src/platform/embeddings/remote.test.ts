import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOllamaEmbedder, createOpenAiCompatibleEmbedder } from "./remote";
import { dot, EmbeddingError } from "./types";

interface Seen {
  path: string;
  authorization: string | undefined;
  body: { model: string; input: string[]; encoding_format?: string };
}

// A local server speaking both wire formats: OpenAI's /v1/embeddings and Ollama's /api/embed.
function vectorOf(text: string): number[] {
  return [text.length, 1, 0];
}

async function readJson(request: IncomingMessage): Promise<Seen["body"]> {
  let raw = "";
  for await (const part of request) raw += part;
  return JSON.parse(raw) as Seen["body"];
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readJson(request);
    seen.push({ path: request.url ?? "", authorization: request.headers.authorization, body });
    response.setHeader("content-type", "application/json");
    if (body.model === "broken") {
      response.statusCode = 500;
      response.end(JSON.stringify({ error: { message: "model crashed", type: "server_error" } }));
    } else if (request.url === "/v1/embeddings") {
      // Reversed on purpose: clients must place rows by `index`, not by position.
      const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })).reverse();
      response.end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 3, total_tokens: 3 } }));
    } else if (request.url === "/api/embed") {
      response.end(JSON.stringify({ model: body.model, embeddings: body.input.map(vectorOf), total_duration: 1, load_duration: 1, prompt_eval_count: 3 }));
    } else {
      response.statusCode = 404;
      response.end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("OpenAI-compatible embedder", () => {
  it("posts batches with the key and prefixes, and orders rows by index", async () => {
    seen.length = 0;
    const embedder = createOpenAiCompatibleEmbedder({
      baseUrl: `${baseUrl}/v1/`,
      model: "e5-small",
      dimensions: 3,
      apiKey: "sk-test",
      queryPrefix: "query: ",
      documentPrefix: "passage: ",
      batchSize: 2,
    });
    const vectors = await embedder.embed(["a", "bbb", "cc"], { kind: "document" });
    expect(seen.map((request) => request.body.input)).toEqual([["passage: a", "passage: bbb"], ["passage: cc"]]);
    expect(seen[0]).toMatchObject({ path: "/v1/embeddings", authorization: "Bearer sk-test", body: { model: "e5-small", encoding_format: "float" } });
    expect(vectors).toHaveLength(3);
    const expected = Float32Array.from([10, 1, 0]);
    const norm = Math.sqrt(dot(expected, expected));
    expect(vectors[0]![0]).toBeCloseTo(10 / norm, 5);
    expect(dot(vectors[2]!, vectors[2]!)).toBeCloseTo(1, 5);
    await embedder.embed(["x"], { kind: "query" });
    expect(seen.at(-1)!.body.input).toEqual(["query: x"]);
    expect(embedder.id).toBe("openai-compatible:e5-small");
  });

  it("reports errors and wrong dimensions", async () => {
    await expect(
      createOpenAiCompatibleEmbedder({ baseUrl: `${baseUrl}/v1`, model: "broken", dimensions: 3, retryBaseMs: 1 }).embed(["a"], { kind: "query" }),
    ).rejects.toThrow(/500.*model crashed/);
    await expect(
      createOpenAiCompatibleEmbedder({ baseUrl: `${baseUrl}/v1`, model: "m", dimensions: 8 }).embed(["a"], { kind: "query" }),
    ).rejects.toBeInstanceOf(EmbeddingError);
  });
});

describe("Ollama embedder", () => {
  it("posts to /api/embed and reads embeddings in order", async () => {
    seen.length = 0;
    const embedder = createOllamaEmbedder({ baseUrl, model: "nomic-embed-text", dimensions: 3 });
    const vectors = await embedder.embed(["a", "bb"], { kind: "document" });
    expect(seen[0]).toMatchObject({ path: "/api/embed", authorization: undefined, body: { model: "nomic-embed-text", input: ["a", "bb"] } });
    expect(vectors[1]![0]!).toBeGreaterThan(vectors[0]![0]!);
    expect(embedder.id).toBe("ollama:nomic-embed-text");
  });
});
