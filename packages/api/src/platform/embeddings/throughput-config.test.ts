import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { INDEX_CONCURRENCY, indexConcurrency, MAX_INDEX_CONCURRENCY } from "../../knowledge/worker";

const embeddings = (env: Record<string, string>) =>
  loadConfig({ PARLEY_DATA_DIR: "/tmp/parley-config-test", PARLEY_EMBEDDINGS_MODEL: "m", PARLEY_EMBEDDINGS_DIMENSIONS: "384", ...env }).knowledge.embeddings;

describe("embeddings batch size and concurrency", () => {
  it("default to large batches for OpenAI's API and to small ones for Ollama and local servers", () => {
    expect(embeddings({ PARLEY_EMBEDDINGS_PROVIDER: "openai" })).toMatchObject({ baseUrl: "https://api.openai.com/v1", batchSize: 256, concurrency: 4 });
    expect(embeddings({ PARLEY_EMBEDDINGS_PROVIDER: "ollama" })).toMatchObject({ batchSize: 32, concurrency: 2 });
    expect(embeddings({ PARLEY_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1" })).toMatchObject({ batchSize: 32, concurrency: 2 });
  });

  it("take the configured values, and refuse values out of range", () => {
    expect(embeddings({ PARLEY_EMBEDDINGS_PROVIDER: "openai", PARLEY_EMBEDDINGS_BATCH_SIZE: "100", PARLEY_EMBEDDINGS_CONCURRENCY: "8" })).toMatchObject({
      batchSize: 100,
      concurrency: 8,
    });
    expect(() => embeddings({ PARLEY_EMBEDDINGS_PROVIDER: "openai", PARLEY_EMBEDDINGS_BATCH_SIZE: "0" })).toThrow(/PARLEY_EMBEDDINGS_BATCH_SIZE/);
    expect(() => embeddings({ PARLEY_EMBEDDINGS_PROVIDER: "openai", PARLEY_EMBEDDINGS_CONCURRENCY: "1000" })).toThrow(/PARLEY_EMBEDDINGS_CONCURRENCY/);
  });
});

describe("files indexed at once", () => {
  const config = (env: Record<string, string>) => loadConfig({ PARLEY_DATA_DIR: "/tmp/parley-config-test", ...env });
  it("are 16 with the offline embedder, and enough to fill every batch in flight with a remote one, at most 64", () => {
    expect(indexConcurrency(config({}))).toBe(INDEX_CONCURRENCY);
    const remote = { PARLEY_EMBEDDINGS_BASE_URL: "http://127.0.0.1:8080/v1", PARLEY_EMBEDDINGS_MODEL: "m", PARLEY_EMBEDDINGS_DIMENSIONS: "384" };
    expect(indexConcurrency(config(remote))).toBe(64);
    expect(indexConcurrency(config({ ...remote, PARLEY_EMBEDDINGS_BATCH_SIZE: "8", PARLEY_EMBEDDINGS_CONCURRENCY: "3" }))).toBe(24);
    expect(indexConcurrency(config({ ...remote, PARLEY_EMBEDDINGS_BATCH_SIZE: "4", PARLEY_EMBEDDINGS_CONCURRENCY: "1" }))).toBe(INDEX_CONCURRENCY);
    expect(indexConcurrency(config({ ...remote, PARLEY_EMBEDDINGS_PROVIDER: "openai", PARLEY_EMBEDDINGS_BASE_URL: "https://api.openai.com/v1" }))).toBe(
      MAX_INDEX_CONCURRENCY,
    );
  });
});
