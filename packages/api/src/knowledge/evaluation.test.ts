import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { knowledgeChunks, knowledgeEvalQuestions } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { evaluationImportSchema, evaluationQuestionSchema, evaluationRunDetailSchema, evaluationRunSchema } from "./evaluation-schemas";
import { deletedSchema, knowledgeFileSchema } from "./schemas";
import { createKnowledgeBaseVia, uploadOk } from "./testing";
import { createKnowledgeWorker } from "./worker";

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "evaluation-owner@example.com");
  stranger = await registerUser(ctx, "evaluation-stranger@example.com");
});
afterAll(async () => ctx.close());

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
  "# Warranty",
  "Every appliance carries a two-year warranty covering manufacturing defects.",
  "# Gift cards",
  "Gift cards never expire and can be spent online or in any store.",
].join("\n\n");

async function indexedBase() {
  const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
  const file = await uploadOk(ctx, owner, base.id, "store-guide.md", guide);
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  expect(await createKnowledgeWorker(ctx.deps).drain()).toBe(1);
  const chunks = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).orderBy(knowledgeChunks.ordinal).all();
  const chunkWith = (text: string) => chunks.find((chunk) => chunk.content.includes(text))!.id;
  return { base, file, chunks, chunkWith };
}

const url = (knowledgeBaseId: string, rest = "") => `/api/v1/knowledge-bases/${knowledgeBaseId}/evaluation${rest}`;
const send = (method: string, path: string, json?: unknown, token = owner.token, language?: string) =>
  ctx.request(path, { method, token, ...(json === undefined ? {} : { json }), ...(language ? { headers: { "accept-language": language } } : {}) });

describe("retrieval evaluation", () => {
  it("keeps questions, runs them through retrieval and lists the runs side by side", async () => {
    const { base, chunkWith } = await indexedBase();
    const express = chunkWith("express shipping");
    const created = await expectOk(
      await send("POST", url(base.id, "/questions"), { question: "  How fast is express shipping?  ", chunkIds: [express] }),
      201,
      evaluationQuestionSchema,
    );
    expect(created).toMatchObject({ question: "How fast is express shipping?", passages: [{ chunkId: express, fileName: "store-guide", missing: false }] });

    const csv = [
      "question,passage",
      "Do gift cards expire?,Gift cards never expire",
      "How long is the warranty?,two-year warranty covering manufacturing defects",
      "How long is the warranty?,Every appliance carries",
      "Where is the moon?,The moon is made of cheese",
      "Anything?,the",
      ",Returns are accepted",
      `When can I return an item?,${chunkWith("thirty days")}`,
    ].join("\n");
    const report = await expectOk(await send("POST", url(base.id, "/questions/import"), { csv }), 200, evaluationImportSchema);
    expect(report).toMatchObject({ totalLines: 7, importedLines: 4, importedQuestions: 3 });
    expect(report.failures.map((failure) => failure.line)).toEqual([5, 6, 7]);
    expect(report.failures[0]!.reason).toBe("No segment of this knowledge base contains the passage");
    expect(report.failures[1]!.reason).toMatch(/segments contain the passage/);
    expect(report.failures[2]!.reason).toBe("The question is empty");

    const questions = await expectOk(await send("GET", url(base.id, "/questions")), 200, z.array(evaluationQuestionSchema));
    expect(questions.map((question) => question.question)).toEqual([
      "How fast is express shipping?",
      "Do gift cards expire?",
      "How long is the warranty?",
      "When can I return an item?",
    ]);
    // Two lines naming the same passage give it once.
    expect(questions[2]!.passages).toHaveLength(1);

    const fullText = await expectOk(await send("POST", url(base.id, "/runs"), { mode: "fulltext", k: 1 }), 201, evaluationRunDetailSchema);
    expect(fullText.status).toBe("succeeded");
    expect(fullText.settings).toMatchObject({ path: "search", mode: "fulltext", k: 1, similarityThreshold: 0 });
    expect(fullText.questionCount).toBe(4);
    expect(fullText.results).toHaveLength(4);
    // The figures are the means of the per-question results the run answers.
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(fullText.hitRate).toBeCloseTo(mean(fullText.results.map((result) => (result.hit ? 1 : 0))), 12);
    expect(fullText.recall).toBeCloseTo(mean(fullText.results.map((result) => result.recall)), 12);
    expect(fullText.ndcg10).toBeCloseTo(mean(fullText.results.map((result) => result.ndcg10)), 12);
    expect(fullText.hitRate).toBeGreaterThanOrEqual(0.75);
    const first = fullText.results[0]!;
    expect(first.expected[0]).toMatchObject({ chunkId: express });
    expect(first.retrieved[first.expected[0]!.rank! - 1]!.chunkId).toBe(express);

    const app = await expectOk(
      await send("POST", url(base.id, "/runs"), { path: "app", mode: "hybrid", semanticCount: 2, fullTextCount: 1, similarityThreshold: 0 }),
      201,
      evaluationRunDetailSchema,
    );
    expect(app.settings).toMatchObject({ path: "app", mode: "hybrid", semanticCount: 2, fullTextCount: 1, k: 10 });
    for (const result of app.results) expect(result.retrieved.length).toBeLessThanOrEqual(3);

    const runs = await expectOk(await send("GET", url(base.id, "/runs")), 200, z.array(evaluationRunSchema));
    expect(runs.map((run) => run.id)).toEqual([app.id, fullText.id]);
    const detail = await expectOk(await send("GET", url(base.id, `/runs/${fullText.id}`)), 200, evaluationRunDetailSchema);
    expect(detail.results).toEqual(fullText.results);

    await expectOk(await send("DELETE", url(base.id, `/runs/${app.id}`)), 200, deletedSchema);
    expect((await expectOk(await send("GET", url(base.id, "/runs")), 200, z.array(evaluationRunSchema))).map((run) => run.id)).toEqual([fullText.id]);
    await expectError(await send("GET", url(base.id, `/runs/${app.id}`)), 404);
  });

  it("edits and deletes questions, and shows a deleted passage as missing", async () => {
    const { base, chunkWith } = await indexedBase();
    const gift = chunkWith("Gift cards");
    const warranty = chunkWith("warranty");
    const question = await expectOk(
      await send("POST", url(base.id, "/questions"), { question: "Gift cards?", chunkIds: [gift] }),
      201,
      evaluationQuestionSchema,
    );
    const edited = await expectOk(
      await send("PATCH", url(base.id, `/questions/${question.id}`), { question: "Do gift cards expire?", chunkIds: [gift, warranty] }),
      200,
      evaluationQuestionSchema,
    );
    expect(edited).toMatchObject({ question: "Do gift cards expire?", passages: [{ chunkId: gift }, { chunkId: warranty }] });

    await expectOk(await send("DELETE", `/api/v1/knowledge-segments/${gift}`), 200, deletedSchema);
    const [after] = await expectOk(await send("GET", url(base.id, "/questions")), 200, z.array(evaluationQuestionSchema));
    expect(after!.passages[0]).toMatchObject({ chunkId: gift, missing: true, fileName: "store-guide" });
    expect(after!.passages[0]!.excerpt).toContain("Gift cards never expire");
    // The missing passage can be kept while the text changes; a run counts it as not found.
    await expectOk(
      await send("PATCH", url(base.id, `/questions/${question.id}`), { question: "Gift card expiry?", chunkIds: [gift, warranty] }),
      200,
      evaluationQuestionSchema,
    );
    const run = await expectOk(await send("POST", url(base.id, "/runs"), { mode: "hybrid" }), 201, evaluationRunDetailSchema);
    expect(run.results[0]!.expected[0]).toMatchObject({ chunkId: gift, rank: null });

    await expectOk(await send("DELETE", url(base.id, `/questions/${question.id}`)), 200, deletedSchema);
    expect(await expectOk(await send("GET", url(base.id, "/questions")), 200, z.array(evaluationQuestionSchema))).toEqual([]);
    // The run keeps its copy of the question.
    const kept = await expectOk(await send("GET", url(base.id, `/runs/${run.id}`)), 200, evaluationRunDetailSchema);
    expect(kept.results[0]!.question).toBe("Gift card expiry?");
  });

  it("refuses bad input with the field named, in the request's language, and changes nothing", async () => {
    const { base, chunkWith } = await indexedBase();
    const other = await indexedBase();
    const count = async () => (await ctx.deps.db.select().from(knowledgeEvalQuestions).where(eq(knowledgeEvalQuestions.knowledgeBaseId, base.id)).all()).length;

    const empty = await expectError(await send("POST", url(base.id, "/questions"), { question: "  ", chunkIds: [chunkWith("warranty")] }), 400);
    expect(empty.data).toMatchObject({ field: "question" });
    const none = await expectError(await send("POST", url(base.id, "/questions"), { question: "Q?", chunkIds: [] }, owner.token, "zh-CN"), 400);
    expect(none.data).toMatchObject({ field: "chunkIds" });
    expect(none.message).toBe("请至少选择一个能回答该问题的段落");
    const foreign = await expectError(await send("POST", url(base.id, "/questions"), { question: "Q?", chunkIds: [other.chunkWith("warranty")] }), 400);
    expect(foreign.message).toMatch(/is not a segment of this knowledge base/);
    const long = await expectError(await send("POST", url(base.id, "/questions"), { question: "x".repeat(2001), chunkIds: [chunkWith("warranty")] }), 400);
    expect(long.data).toMatchObject({ field: "question" });
    const tooMany = await expectError(
      await send("POST", url(base.id, "/questions"), { question: "Q?", chunkIds: Array.from({ length: 21 }, (_, index) => `kc_${index}`) }),
      400,
    );
    expect(tooMany.data).toMatchObject({ field: "chunkIds" });
    const columns = await expectError(await send("POST", url(base.id, "/questions/import"), { csv: "q,a\nx,y" }), 400);
    expect(columns.data).toMatchObject({ field: "csv" });
    await expectError(await send("POST", url(base.id, "/questions/import"), { csv: "question,passage\n" }), 400);
    expect(await count()).toBe(0);

    const noQuestions = await expectError(await send("POST", url(base.id, "/runs"), {}), 400);
    expect(noQuestions.message).toBe("Add evaluation questions before running an evaluation");
    await expectOk(await send("POST", url(base.id, "/questions"), { question: "Warranty?", chunkIds: [chunkWith("warranty")] }), 201, evaluationQuestionSchema);
    const k = await expectError(await send("POST", url(base.id, "/runs"), { k: 0 }), 400);
    expect(k.data).toMatchObject({ field: "k" });
    const counts = await expectError(await send("POST", url(base.id, "/runs"), { path: "app", semanticCount: 8, fullTextCount: 3 }), 400);
    expect(counts.data).toMatchObject({ field: "fullTextCount" });
    const mode = await expectError(await send("POST", url(base.id, "/runs"), { mode: "magic" }), 400);
    expect(mode.data).toMatchObject({ field: "mode" });
    expect(await expectOk(await send("GET", url(base.id, "/runs")), 200, z.array(evaluationRunSchema))).toEqual([]);
  });

  it("hides another space's knowledge base, questions and runs", async () => {
    const { base, chunkWith } = await indexedBase();
    const question = await expectOk(
      await send("POST", url(base.id, "/questions"), { question: "Warranty?", chunkIds: [chunkWith("warranty")] }),
      201,
      evaluationQuestionSchema,
    );
    const run = await expectOk(await send("POST", url(base.id, "/runs"), {}), 201, evaluationRunDetailSchema);
    await expectError(await send("GET", url(base.id, "/questions"), undefined, stranger.token), 404);
    await expectError(await send("GET", url(base.id, "/runs"), undefined, stranger.token), 404);
    await expectError(await send("GET", url(base.id, `/runs/${run.id}`), undefined, stranger.token), 404);
    await expectError(await send("POST", url(base.id, "/runs"), {}, stranger.token), 404);
    await expectError(await send("DELETE", url(base.id, `/questions/${question.id}`), undefined, stranger.token), 404);
    // Ids of one knowledge base do not reach through another of the same space.
    const second = await createKnowledgeBaseVia(ctx, owner);
    await expectError(await send("DELETE", url(second.id, `/questions/${question.id}`)), 404);
    await expectError(await send("GET", url(second.id, `/runs/${run.id}`)), 404);
    expect(await expectOk(await send("GET", url(base.id, "/questions")), 200, z.array(evaluationQuestionSchema))).toHaveLength(1);
  });
});
