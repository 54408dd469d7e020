import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { knowledgeFileSchema, retrievalTestSchema } from "../knowledge/schemas";
import { createKnowledgeBaseVia, uploadOk } from "../knowledge/testing";
import { createKnowledgeWorker } from "../knowledge/worker";
import { type EmbeddingsFake, startEmbeddingsFake } from "../testing/fakes/embeddings";
import { expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import type { ChatEvent } from "./events";

// The newcomer's first try (issue 12): a knowledge base, a small .md file through the real import
// flow, a knowledge app with nothing but the base bound, and a question whose answer is in the
// file. No language model is configured, so the offline responder answers from the hits. Run
// once with the offline lexical embedder and once with an OpenAI-compatible embeddings server:
// the defaults must work with either (decision 0010).

const guide = [
  "# Opening hours",
  "The Parley Coffee shop opens at half past seven every weekday morning.",
  "# Refunds",
  "Refunds reach the original card within five working days.",
  "# Shipping",
  "Parcels leave the roastery every morning; the courier brings them within two days.",
].join("\n\n");

async function readEvents(response: Response): Promise<ChatEvent[]> {
  expect(response.status).toBe(200);
  const events: ChatEvent[] = [];
  for (const block of (await response.text()).split("\n\n")) {
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (data) events.push(JSON.parse(data) as ChatEvent);
  }
  return events;
}
const textOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
const citationsIn = (events: ChatEvent[]) => events.filter((event): event is Extract<ChatEvent, { type: "citation" }> => event.type === "citation");

function newcomerJourney(label: string, env: () => Record<string, string>) {
  describe(`a knowledge app with default settings (${label})`, () => {
    let ctx: TestContext;
    let owner: TestUser;
    let appCode: string;
    let baseId: string;

    beforeAll(async () => {
      ctx = await createTestContext(env());
      owner = await registerUser(ctx, "newcomer@example.com");
      const base = await createKnowledgeBaseVia(ctx, owner, { name: "Coffee" });
      baseId = base.id;
      const file = await uploadOk(ctx, owner, base.id, "coffee-guide.md", guide);
      await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
      await createKnowledgeWorker(ctx.deps).drain();
      const app = await createAppVia(ctx, owner, { type: "KNOWLEDGE", knowledgeBaseIds: [base.id] });
      expect(app).toMatchObject({
        retrievalMode: "hybrid",
        similarityThreshold: 0.75,
        semanticCount: 6,
        fullTextCount: 4,
        citationEnabled: true,
        citationThreshold: 0.8,
      });
      appCode = app.code;
    });
    afterAll(async () => {
      await ctx.close();
    });

    const ask = (message: string, headers: Record<string, string> = {}) =>
      ctx.request("/api/v1/chat/stream", { method: "POST", token: owner.token, json: { appCode, message }, headers }).then(readEvents);

    it("answers a question from the file, with a citation", async () => {
      const events = await ask("How long do refunds take to reach my card?");
      const text = textOf(events);
      expect(text).toContain("five working days");
      expect(text).not.toMatch(/No language model/);
      const citations = citationsIn(events);
      expect(citations.length).toBeGreaterThan(0);
      expect(citations[0]).toMatchObject({ source: "coffee-guide" });
      expect(citations.some((citation) => citation.content.includes("five working days"))).toBe(true);
    });

    it("answers the same for an app that kept the old stored settings (semantic, threshold 0.75)", async () => {
      const old = await createAppVia(ctx, owner, {
        type: "KNOWLEDGE",
        knowledgeBaseIds: [baseId],
        retrievalMode: "semantic",
        similarityThreshold: 0.75,
        citationEnabled: true,
        citationThreshold: 0.75,
      });
      const events = await ctx
        .request("/api/v1/chat/stream", {
          method: "POST",
          token: owner.token,
          json: { appCode: old.code, message: "How long do refunds take to reach my card?" },
        })
        .then(readEvents);
      expect(textOf(events)).toContain("five working days");
      expect(citationsIn(events).length).toBeGreaterThan(0);
    });

    it("gives the one offline message in Chinese, linking API access → Models, when there is nothing to answer from", async () => {
      // An app of its own, without knowledge: whether a hashed fake vector happens to meet a segment is beside the point.
      const plain = await createAppVia(ctx, owner, { type: "KNOWLEDGE" });
      const events = await ctx
        .request("/api/v1/chat/stream", {
          method: "POST",
          token: owner.token,
          json: { appCode: plain.code, message: "今天天气怎么样？" },
          headers: { "accept-language": "zh-CN" },
        })
        .then(readEvents);
      expect(textOf(events)).toBe(
        "这个应用还没有可用的语言模型，暂时无法回答这个问题。所有者可以在 Parley 控制台的“[API 接入 → 模型](/console/Integrations?tab=models)”中添加。",
      );
      expect(citationsIn(events)).toHaveLength(0);
    });

    it("shows the same finding in the retrieval test, which starts from a new app's settings", async () => {
      const response = await ctx.request(`/api/v1/knowledge-bases/${baseId}/retrieval-test`, {
        method: "POST",
        token: owner.token,
        json: { query: "How long do refunds take to reach my card?" },
      });
      const result = await expectOk(response, 200, retrievalTestSchema);
      expect(result.settings).toEqual({ mode: "hybrid", similarityThreshold: 0.75, semanticCount: 6, fullTextCount: 4 });
      expect(result.app.length).toBeGreaterThan(0);
      expect(result.app[0]!.content).toContain("five working days");
      // Full-text and fused hits carry readable scores, even in a base of one short file.
      // "refunds" and "card" of the query's words: a share, where BM25 is about 0 in a one-file base.
      expect(result.fullText[0]!.textMatch).toBeGreaterThan(0.2);
      expect(result.fullText[0]!.textMatch).toBeLessThanOrEqual(1);
      expect(result.hybrid[0]!.score).toBeGreaterThan(0.5);
      expect(result.hybrid[0]!.score).toBeLessThanOrEqual(1);
    });
  });
}

newcomerJourney("offline lexical embedder", () => ({}));

let embeddings: EmbeddingsFake;
beforeAll(async () => {
  embeddings = await startEmbeddingsFake({ apiKey: "sk-newcomer", dimensions: 16 });
});
afterAll(async () => {
  await embeddings.close();
});
newcomerJourney("an OpenAI-compatible embeddings server", () => ({
  PARLEY_EMBEDDINGS_PROVIDER: "openai",
  PARLEY_EMBEDDINGS_BASE_URL: embeddings.url,
  PARLEY_EMBEDDINGS_API_KEY: "sk-newcomer",
  PARLEY_EMBEDDINGS_MODEL: "text-embedding-fake",
  PARLEY_EMBEDDINGS_DIMENSIONS: "16",
}));
