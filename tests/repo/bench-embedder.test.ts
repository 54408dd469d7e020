import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddingsFake, startEmbeddingsFake } from "../../packages/api/src/testing/fakes/embeddings";

const root = path.resolve(__dirname, "../..");
const fixture = path.join(root, "tests/fixtures/beir-tiny");

let fake: EmbeddingsFake;
beforeAll(async () => {
  fake = await startEmbeddingsFake({ apiKey: "sk-bench", dimensions: 16 });
});
afterAll(() => fake.close());

/** Runs a bench script with tsx, the fake answering meanwhile (a blocking spawn would starve it). */
function runBench(script: string, args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, script), ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (part) => (stdout += part));
    child.stderr.on("data", (part) => (stderr += part));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("bench:retrieval", () => {
  it("embeds with the provider and vector store the environment configures, as the server would", async () => {
    const run = await runBench("bench/retrieval.ts", ["--corpus", fixture, "--qrels", path.join(fixture, "qrels/test.tsv")], {
      PARLEY_EMBEDDINGS_PROVIDER: "openai",
      PARLEY_EMBEDDINGS_BASE_URL: fake.url,
      PARLEY_EMBEDDINGS_API_KEY: "sk-bench",
      PARLEY_EMBEDDINGS_MODEL: "text-embedding-fake",
      PARLEY_EMBEDDINGS_DIMENSIONS: "16",
      PARLEY_EMBEDDINGS_BATCH_SIZE: "4",
      PARLEY_VECTOR_STORE: "memory",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const [first, ...figures] = run.stdout.trim().split("\n");
    expect(first).toContain("embedder=openai-compatible:text-embedding-fake");
    expect(first).toContain("embed_batch=4");
    expect(first).toContain("vectors=memory");
    const sent = fake.requests.flatMap((request) => request.input);
    for (const line of fs.readFileSync(path.join(fixture, "corpus.jsonl"), "utf8").trim().split("\n")) {
      const doc = JSON.parse(line) as { text: string };
      expect(sent.some((text) => text.includes(doc.text))).toBe(true);
    }
    expect(fake.requests.every((request) => request.input.length <= 4 && request.model === "text-embedding-fake")).toBe(true);
    // The questions went to the provider too, and both throughputs are printed side by side.
    expect(sent).toContain("when do I get my money back");
    expect(figures.join("\n")).toMatch(/ingest_chunks_per_s=[\d.]+\nembed_server_texts_per_s=[\d.]+/);
  }, 30_000);
});
