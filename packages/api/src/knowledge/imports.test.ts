import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeChunks, knowledgeFiles } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { importResultSchema } from "./import-schemas";
import { knowledgeFileSchema, previewSchema, retrievalTestSchema } from "./schemas";
import { createKnowledgeBaseVia } from "./testing";
import { createKnowledgeWorker } from "./worker";

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "imports-owner@example.com");
  stranger = await registerUser(ctx, "imports-stranger@example.com");
});
afterAll(async () => ctx.close());

const utf8 = (text: string) => new TextEncoder().encode(text);
const filesOf = (knowledgeBaseId: string) => ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, knowledgeBaseId)).all();
const chunksOf = (fileId: string) => ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(knowledgeChunks.ordinal).all();

/** Posts a multipart upload, like the console does. */
function postFile(path: string, fileName: string, bytes: Uint8Array | string, fields: Record<string, string> = {}, token = owner.token, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], fileName));
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return ctx.request(path, { method: "POST", token, body: form, headers });
}

async function confirmAndIndex(fileId: string) {
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${fileId}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  await createKnowledgeWorker(ctx.deps).drain();
  const row = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId)).get();
  expect(row?.status).toBe("effective");
}

const search = (knowledgeBaseId: string, query: string) =>
  ctx.request(`/api/v1/knowledge-bases/${knowledgeBaseId}/retrieval-test`, { method: "POST", token: owner.token, json: { query } });

describe("Q&A import", () => {
  const qaPath = (knowledgeBaseId: string) => `/api/v1/knowledge-bases/${knowledgeBaseId}/imports/qa`;

  it("imports the good rows, reports the failed ones, and indexes question-only pairs by their question", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const csv = [
      "\uFEFF问题,答案,检索方式,附带素材",
      "How long do refunds take?,Refunds arrive within five working days.,仅问题,",
      "Do you ship to Iceland?,Parcels to Iceland travel by sea freight.,问题和答案,https://example.com/ship.png",
      ",An answer without question,仅问题,",
      "A question without answer,,问题和答案,",
    ].join("\n");
    const result = await expectOk(await postFile(qaPath(base.id), "faq.csv", csv), 201, importResultSchema);
    expect(result.file).toMatchObject({ type: "qa", name: "faq", status: "pending", source: "faq.csv" });
    expect(result.report).toMatchObject({ totalRecords: 4, importedRecords: 2, failedRecords: 2, message: "Import failed for 2 records" });
    expect(result.report.failures).toEqual([
      { row: 4, reason: "The question is empty" },
      { row: 5, reason: "The answer is empty" },
    ]);

    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${result.file.id}/preview`, { token: owner.token }), 200, previewSchema);
    expect(preview.totalSegments).toBe(2);
    expect(preview.segments[0]).toMatchObject({
      content: "Q: How long do refunds take?\nA: Refunds arrive within five working days.",
      metadata: { question: "How long do refunds take?", searchMethod: "question" },
    });
    expect(preview.segments[1]!.metadata).toMatchObject({ searchMethod: "question_answer", material: { type: "url", url: "https://example.com/ship.png" } });

    await confirmAndIndex(result.file.id);
    const byQuestion = await expectOk(await search(base.id, "how long do refunds take"), 200, retrievalTestSchema);
    expect(byQuestion.fullText[0]!.content).toContain("five working days");
    // Searched by question only: the answer's words do not find it by full text.
    const byAnswer = await expectOk(await search(base.id, "working days"), 200, retrievalTestSchema);
    expect(byAnswer.fullText.map((hit) => hit.content)).not.toContain(preview.segments[0]!.content);
    const both = await expectOk(await search(base.id, "sea freight"), 200, retrievalTestSchema);
    expect(both.fullText[0]!.content).toContain("Iceland");
  });

  it("answers the report in Chinese when asked", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const response = await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\nq,a,question\n,a,question\n", {}, owner.token, { "accept-language": "zh-CN" });
    const result = await expectOk(response, 201, importResultSchema);
    expect(result.report.message).toBe("1 条记录导入失败");
    expect(result.report.failures[0]!.reason).toBe("问题为空");
  });

  it("refuses a GBK CSV, wrong columns, an all-failed file and a non-CSV, storing nothing", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    // "问题,答案,检索方式" saved as GBK.
    const gbk = new Uint8Array([0xce, 0xca, 0xcc, 0xe2, 0x2c, 0xb4, 0xf0, 0xb0, 0xb8, 0x2c, 0xbc, 0xec, 0xcb, 0xf7, 0xb7, 0xbd, 0xca, 0xbd, 0x0a]);
    await expectError(await postFile(qaPath(base.id), "faq.csv", gbk), 400, { field: "file", message: "File encoding error (save as UTF-8)" });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,reply\nq,a\n"), 400, {
      field: "file",
      message: "The CSV does not match the template: missing column(s) answer, search method",
    });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\n,a,question\n"), 400, { message: "Import failed: all 1 records failed" });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\n"), 400, { message: "The file has no records below its header" });
    await expectError(await postFile(qaPath(base.id), "faq.txt", "question,answer,search method\nq,a,question\n"), 400, { field: "file" });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\nq,a,question\n", { name: "bad name!" }), 400, { field: "name" });
    expect(await filesOf(base.id)).toEqual([]);
  });

  it("serves the template in the request's language, and hides another space's knowledge base", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const english = await ctx.request(`/api/v1/knowledge-bases/${base.id}/qa-template`, { token: owner.token });
    expect(english.status).toBe(200);
    expect(english.headers.get("content-type")).toContain("text/csv");
    expect(english.headers.get("content-disposition")).toContain("attachment");
    const bytes = new Uint8Array(await english.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toContain("question,answer,search method,attached material");
    const chinese = await ctx.request(`/api/v1/knowledge-bases/${base.id}/qa-template`, { token: owner.token, headers: { "accept-language": "zh-CN" } });
    expect(await chinese.text()).toContain("问题,答案,检索方式,附带素材");

    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}/qa-template`, { token: stranger.token }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}/qa-template`), 401);
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\nq,a,question\n", {}, stranger.token), 404);
    expect(await filesOf(base.id)).toEqual([]);
  });
});

