import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RerankFake, startRerankFake } from "../../testing/fakes/rerank";
import { createRemoteReranker, decodeRerankAnswer } from "./remote";
import { RerankError } from "./types";

// The rerank port against real local servers speaking TEI's and Cohere's (Jina's) `/rerank`.
const KEY = "rk-test-0123456789";
let cohere: RerankFake;
let tei: RerankFake;
const documents = ["Shipping takes three days.", "The warranty covers defects for two years.", "Returns within thirty days."];

beforeAll(async () => {
  cohere = await startRerankFake({ format: "cohere", apiKey: KEY });
  tei = await startRerankFake({ format: "tei", apiKey: KEY });
});
afterAll(async () => {
  await cohere.close();
  await tei.close();
});

describe("remote reranker", () => {
  it("sends Cohere's body with the bearer key and reads results[].relevance_score, best first", async () => {
    const reranker = createRemoteReranker({ baseUrl: `${cohere.url}/`, model: "rerank-v3.5", format: "cohere", apiKey: KEY });
    const { scores } = await reranker.rerank({ query: "warranty defects", documents });
    expect(scores.map((entry) => entry.index)).toEqual([1, 0, 2]);
    expect(scores[0]!.score).toBe(1);
    const sent = cohere.requests.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({ model: "rerank-v3.5", query: "warranty defects", documents, top_n: 3 });
  });

  it("sends TEI's body (texts) and reads its bare array", async () => {
    const reranker = createRemoteReranker({ baseUrl: tei.url, model: "bge-reranker-v2-m3", format: "tei", apiKey: KEY });
    const { scores } = await reranker.rerank({ query: "returns thirty days", documents });
    expect(scores[0]).toEqual({ index: 2, score: 1 });
    expect(tei.requests.at(-1)!.body).toEqual({ query: "returns thirty days", texts: documents });
  });

  it("reports a refused key, a wrong body, a failing server, a bad answer and a timeout as RerankError", async () => {
    const wrongKey = createRemoteReranker({ baseUrl: cohere.url, model: "m", format: "cohere", apiKey: "nope" });
    await expect(wrongKey.rerank({ query: "q", documents })).rejects.toMatchObject({ name: "RerankError", status: 401 });
    // A Cohere body sent to a TEI server: TEI refuses it with 422.
    const wrongFormat = createRemoteReranker({ baseUrl: tei.url, model: "m", format: "cohere", apiKey: KEY });
    await expect(wrongFormat.rerank({ query: "q", documents })).rejects.toMatchObject({ status: 422 });
    const reranker = createRemoteReranker({ baseUrl: cohere.url, model: "m", format: "cohere", apiKey: KEY, timeoutMs: 10_000 });
    cohere.setMode("fail");
    await expect(reranker.rerank({ query: "q", documents })).rejects.toThrow(/answered 500/);
    cohere.setMode("garbage");
    await expect(reranker.rerank({ query: "q", documents })).rejects.toThrow(/index outside/);
    cohere.setMode("hang");
    // Only the hang waits for its timeout; a loaded machine can take longer than that for a real answer.
    const impatient = createRemoteReranker({ baseUrl: cohere.url, model: "m", format: "cohere", apiKey: KEY, timeoutMs: 300 });
    await expect(impatient.rerank({ query: "q", documents })).rejects.toThrow(/timed out/);
    cohere.setMode("ok");
    const unreachable = createRemoteReranker({ baseUrl: "http://127.0.0.1:9", model: "m", format: "tei" });
    await expect(unreachable.rerank({ query: "q", documents })).rejects.toBeInstanceOf(RerankError);
  });

  it("makes no call for no documents", async () => {
    const before = tei.requests.length;
    const reranker = createRemoteReranker({ baseUrl: tei.url, model: "m", format: "tei", apiKey: KEY });
    expect(await reranker.rerank({ query: "q", documents: [] })).toEqual({ scores: [] });
    expect(tei.requests.length).toBe(before);
  });

  it("validates answers: indexes in range and once, finite scores", () => {
    expect(
      decodeRerankAnswer(
        [
          { index: 1, score: 0.2 },
          { index: 0, score: 0.9 },
        ],
        2,
      ),
    ).toEqual([
      { index: 0, score: 0.9 },
      { index: 1, score: 0.2 },
    ]);
    expect(decodeRerankAnswer({ results: [{ index: 0, relevance_score: 0.5 }] }, 2)).toEqual([{ index: 0, score: 0.5 }]);
    expect(() =>
      decodeRerankAnswer(
        {
          results: [
            { index: 0, relevance_score: 0.5 },
            { index: 0, relevance_score: 0.4 },
          ],
        },
        2,
      ),
    ).toThrow(RerankError);
    expect(() => decodeRerankAnswer([{ index: 0, score: "high" }], 2)).toThrow(RerankError);
    expect(() => decodeRerankAnswer([{ index: -1, score: 1 }], 2)).toThrow(RerankError);
    expect(() => decodeRerankAnswer({ data: [] }, 2)).toThrow(RerankError);
  });
});
