import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EmbeddingsFake, startEmbeddingsFake } from "../../testing/fakes/embeddings";
import { createOpenAiCompatibleEmbedder, type RemoteEmbedderOptions } from "./remote";
import { dot } from "./types";

let fake: EmbeddingsFake;
beforeAll(async () => {
  fake = await startEmbeddingsFake({ dimensions: 16 });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.setDelay(0);
  fake.failNext(0);
  fake.resetInFlight();
});

const embedderOf = (options: Partial<RemoteEmbedderOptions> = {}) =>
  createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "text-embedding-fake", dimensions: 16, retryBaseMs: 20, ...options });

/** Texts of one "file": distinct words, so each text has its own vector. */
const fileTexts = (file: number, count: number) => Array.from({ length: count }, (_, index) => `file${file} chunk${index} word${file * 100 + index}`);

describe("document batches", () => {
  it("gathers texts of concurrent callers into full batches, and each caller gets exactly its own vectors", async () => {
    const embedder = embedderOf({ batchSize: 8, concurrency: 2 });
    const files = Array.from({ length: 10 }, (_, file) => fileTexts(file, 3));
    const results = await Promise.all(files.map((texts) => embedder.embed(texts, { kind: "document" })));
    // 30 texts in batches of 8: 4 requests, not 10 (one per caller); two in flight may arrive in either order.
    expect(fake.requests.map((request) => request.input.length).sort()).toEqual([6, 8, 8, 8]);
    expect(fake.requests.flatMap((request) => request.input).sort()).toEqual(files.flat().sort());
    const alone = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "text-embedding-fake", dimensions: 16 });
    for (const [file, texts] of files.entries()) {
      const own = await alone.embed(texts, { kind: "query" });
      expect(results[file]).toHaveLength(texts.length);
      results[file]!.forEach((vector, index) => expect(dot(vector, own[index]!)).toBeCloseTo(1, 5));
    }
  });

  it("keeps at most `concurrency` requests in flight and the rest waits in order", async () => {
    fake.setDelay(80);
    const embedder = embedderOf({ batchSize: 2, concurrency: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, file) => embedder.embed(fileTexts(file, 2), { kind: "document" })));
    expect(fake.requests).toHaveLength(10);
    expect(fake.maxInFlight).toBe(3);
  });

  it("sends a partial batch after a short wait instead of holding it", async () => {
    const embedder = embedderOf({ batchSize: 64, concurrency: 2, batchWaitMs: 10 });
    const started = performance.now();
    await embedder.embed(["alone"], { kind: "document" });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(fake.requests.map((request) => request.input)).toEqual([["alone"]]);
  });

  it("answers a question at once, not behind the indexing batches", async () => {
    fake.setDelay(150);
    const embedder = embedderOf({ batchSize: 2, concurrency: 1 });
    let documentsDone = false;
    const documents = embedder.embed(fileTexts(1, 10), { kind: "document" }).then(() => (documentsDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [vector] = await embedder.embed(["where is my refund"], { kind: "query" });
    expect(vector).toHaveLength(16);
    expect(documentsDone).toBe(false);
    await documents;
  });
});

describe("retries", () => {
  it("retries 5xx and 429 with the same whole batch, honouring Retry-After", async () => {
    const embedder = embedderOf({ batchSize: 4, concurrency: 1 });
    const texts = fileTexts(7, 4);
    fake.failNext(2, { status: 503 });
    expect(await embedder.embed(texts, { kind: "document" })).toHaveLength(4);
    expect(fake.requests.map((request) => request.input)).toEqual([texts, texts, texts]);

    fake.requests.length = 0;
    fake.failNext(1, { status: 429, retryAfter: "1" });
    const started = performance.now();
    expect(await embedder.embed(texts, { kind: "document" })).toHaveLength(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests.map((request) => request.input)).toEqual([texts, texts]);
  });

  it("fails a 4xx other than 429 at once, and every caller of that batch sees the error", async () => {
    const embedder = embedderOf({ batchSize: 8, concurrency: 1 });
    fake.failNext(1, { status: 400 });
    const outcomes = await Promise.allSettled([embedder.embed(fileTexts(1, 2), { kind: "document" }), embedder.embed(fileTexts(2, 2), { kind: "document" })]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.input).toHaveLength(4);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/answered 400/);
    }
  });

  it("gives up after its retries with the server's error", async () => {
    const embedder = embedderOf({ batchSize: 8, concurrency: 1, retries: 2 });
    fake.failNext(5, { status: 500, retryAfter: "0" });
    await expect(embedder.embed(fileTexts(3, 3), { kind: "document" })).rejects.toThrow(/answered 500/);
    expect(fake.requests).toHaveLength(3);
    expect(new Set(fake.requests.map((request) => request.input.join("|"))).size).toBe(1);
  });
});

describe("a connection reset", () => {
  let server: Server;
  let url: string;
  const bodies: string[][] = [];
  let resets = 1;
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      let raw = "";
      for await (const part of request) raw += part;
      const body = JSON.parse(raw) as { input: string[] };
      bodies.push(body.input);
      if (resets > 0) {
        resets -= 1;
        request.socket.destroy();
        return;
      }
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ object: "list", data: body.input.map((_, index) => ({ object: "embedding", index, embedding: [1, index, 0] })), model: "m" }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is retried with the same batch", async () => {
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl: url, model: "m", dimensions: 3, retryBaseMs: 20 });
    expect(await embedder.embed(["a", "b", "c"], { kind: "document" })).toHaveLength(3);
    expect(bodies).toEqual([
      ["a", "b", "c"],
      ["a", "b", "c"],
    ]);
  });
});
