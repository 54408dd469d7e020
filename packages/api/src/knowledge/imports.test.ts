import fs from "node:fs";
import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps, knowledgeBases, knowledgeChunks, knowledgeFiles, mediaMaterials } from "../db/schema/index";
import { createAppVia } from "../apps/testing";
import { type FeishuFake, startFeishuFake } from "../testing/fakes/feishu";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import {
  feishuAuthorizationSchema,
  importResultSchema,
  mediaPageSchema,
  mediaSchema,
  qaPairPageSchema,
  qaPairSchema,
  tableRowPageSchema,
  tableRowSchema,
  tableSchema,
} from "./import-schemas";
import { articleHtml, startWebServer, type WebPage, type WebServer, xlsxOf } from "./imports-testing";
import { deletedSchema, knowledgeFileSchema, previewSchema, retrievalTestSchema } from "./schemas";
import { createKnowledgeBaseVia, pdfOf, uploadOk } from "./testing";
import { createKnowledgeWorker } from "./worker";

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
/** A "public" site: its host is allowed by configuration, like any site on the internet. */
let site: WebServer;
/** An internal service on loopback that the address rules must keep out of reach. */
let internal: WebServer;
let feishu: FeishuFake;
const feishuApp = { appId: "cli_a1b2c3d4e5f6a7b8", appSecret: "dskLLdkasdjlasdKK" };

const returnsArticle = articleHtml("Returns Policy | Shop", [
  "Returns are accepted within thirty days of delivery when the item is unused and in its original packaging.",
  "Refunds are sent to the original payment method within five working days after the parcel arrives at our warehouse.",
  "Exchanges are free for members; everyone else pays a flat fee of five euros per exchanged item.",
]);

beforeAll(async () => {
  internal = await startWebServer(() => ({ body: articleHtml("Internal admin", ["Secret internal page that must never be imported by anyone outside."]) }));
  site = await startWebServer((path, self): WebPage | undefined => {
    switch (path) {
      case "/returns":
        return { body: returnsArticle };
      case "/moved":
        return { status: 301, headers: { location: `${self.url}/returns` } };
      case "/to-internal":
        return { status: 302, headers: { location: `${internal.url}/admin` } };
      case "/slow":
        return { body: returnsArticle, delayMs: 3_000 };
      case "/data.json":
        return { headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "Returns are accepted within thirty days of delivery." }) };
      case "/empty":
        return { body: "<!doctype html><html><head><title>Nothing</title></head><body><div></div></body></html>" };
      case "/huge":
        return { body: articleHtml("Huge", ["word ".repeat(80_000)]) };
      case "/gone":
        return { status: 500, body: "oops" };
      default:
        return undefined;
    }
  });
  feishu = await startFeishuFake({
    apps: [feishuApp],
    documents: [
      {
        documentId: "B4EPdAYx8oi8HRxgPQQbM15UcBf",
        title: "Onboarding Guide",
        content: "New colleagues collect their badge at the front desk on the first morning.\n\nThe coffee machine on the third floor is free for everyone.",
      },
      { documentId: "PrivateDoc0000000000000001", title: "Board minutes", content: "Confidential.", forbidden: true },
    ],
  });
  ctx = await createTestContext({
    PARLEY_FEISHU_BASE_URL: feishu.url,
    PARLEY_PLUGINS_ALLOWED_HOSTS: `127.0.0.1:${site.port}`,
    PARLEY_KNOWLEDGE_WEBSITE_TIMEOUT_MS: "800",
    PARLEY_KNOWLEDGE_WEBSITE_MAX_BYTES: "200000",
  });
  owner = await registerUser(ctx, "imports-owner@example.com");
  // A 12 MB document holds more tokens than Free's knowledge capacity (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "imports-stranger@example.com");
});
afterAll(async () => {
  await ctx.close();
  await site.close();
  await internal.close();
  await feishu.close();
});

const filesOf = (knowledgeBaseId: string) => ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, knowledgeBaseId)).all();
const chunksOf = (fileId: string) =>
  ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(knowledgeChunks.ordinal).all();

/** Posts a multipart upload, like the console does. */
function postFile(
  path: string,
  fileName: string,
  bytes: Uint8Array | string,
  fields: Record<string, string> = {},
  token = owner.token,
  headers: Record<string, string> = {},
) {
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
    const response = await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\nq,a,question\n,a,question\n", {}, owner.token, {
      "accept-language": "zh-CN",
    });
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
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\n,a,question\n"), 400, {
      message: "Import failed: all 1 records failed",
    });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\n"), 400, {
      message: "The file has no records below its header",
    });
    await expectError(await postFile(qaPath(base.id), "faq.txt", "question,answer,search method\nq,a,question\n"), 400, { field: "file" });
    await expectError(await postFile(qaPath(base.id), "faq.csv", "question,answer,search method\nq,a,question\n", { name: "bad name!" }), 400, {
      field: "name",
    });
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

describe("Q&A pairs", () => {
  it("lists, adds, edits and deletes pairs, keeping the segment, its metadata and its index in step", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const csv = "question,answer,search method\nHow long do refunds take?,Five working days.,question\n";
    const result = await expectOk(await postFile(`/api/v1/knowledge-bases/${base.id}/imports/qa`, "faq.csv", csv), 201, importResultSchema);
    const pairsPath = `/api/v1/knowledge-files/${result.file.id}/qa/pairs`;
    const pending = await expectOk(await ctx.request(pairsPath, { token: owner.token }), 200, qaPairPageSchema);
    expect(pending.items).toMatchObject([{ id: null, question: "How long do refunds take?", searchMethod: "question", material: null }]);
    await expectError(await ctx.request(pairsPath, { method: "POST", token: owner.token, json: { question: "q", answer: "a" } }), 409);
    await confirmAndIndex(result.file.id);

    const added = await expectOk(
      await ctx.request(pairsPath, {
        method: "POST",
        token: owner.token,
        json: { question: "Can I pay by invoice?", answer: "Companies may pay within 30 days by bank transfer." },
      }),
      201,
      qaPairSchema,
    );
    expect(added).toMatchObject({ ordinal: 1, searchMethod: "question", material: null });
    expect((await expectOk(await search(base.id, "pay by invoice"), 200, retrievalTestSchema)).fullText[0]!.chunkId).toBe(added.id);
    // Searched by question only: the answer's words do not find it.
    expect((await expectOk(await search(base.id, "bank transfer"), 200, retrievalTestSchema)).fullText.map((hit) => hit.chunkId)).not.toContain(added.id);

    const edited = await expectOk(
      await ctx.request(`${pairsPath}/${added.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { searchMethod: "question_answer", material: "https://example.com/iban.png" },
      }),
      200,
      qaPairSchema,
    );
    expect(edited).toMatchObject({
      question: "Can I pay by invoice?",
      searchMethod: "question_answer",
      material: { type: "url", url: "https://example.com/iban.png" },
    });
    const stored = (await chunksOf(result.file.id)).find((chunk) => chunk.id === added.id)!;
    expect(stored.content).toBe("Q: Can I pay by invoice?\nA: Companies may pay within 30 days by bank transfer.");
    expect(JSON.parse(stored.metadata)).toMatchObject({ searchMethod: "question_answer", material: { type: "url" } });
    expect((await expectOk(await search(base.id, "bank transfer"), 200, retrievalTestSchema)).fullText[0]!.chunkId).toBe(added.id);

    await expectError(await ctx.request(`${pairsPath}/${added.id}`, { method: "PATCH", token: owner.token, json: { answer: "  " } }), 400, { field: "answer" });
    await expectError(await ctx.request(`${pairsPath}/${added.id}`, { method: "PATCH", token: owner.token, json: { material: "mm_NOTHERE" } }), 400, {
      field: "material",
    });
    await expectError(await ctx.request(`${pairsPath}/${added.id}`, { method: "PATCH", token: stranger.token, json: { answer: "mine" } }), 404);
    await expectError(await ctx.request(`${pairsPath}/${added.id}`, { method: "DELETE", token: stranger.token }), 404);
    await expectOk(await ctx.request(`${pairsPath}/${added.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    const after = await expectOk(await ctx.request(pairsPath, { token: owner.token }), 200, qaPairPageSchema);
    expect(after.items.map((item) => item.question)).toEqual(["How long do refunds take?"]);
    await expectError(await ctx.request(pairsPath, { token: stranger.token }), 404);
  });
});

describe("table import", () => {
  const tablePath = (knowledgeBaseId: string) => `/api/v1/knowledge-bases/${knowledgeBaseId}/imports/table`;
  const products = ["SKU,Name,Price", "A-100,Electric kettle,39", "A-200,Bread toaster,25", ",Nameless lamp,12", "A-300,Desk lamp,18"].join("\n");

  async function effectiveTable(knowledgeBaseId: string) {
    const result = await expectOk(await postFile(tablePath(knowledgeBaseId), "products.csv", products), 201, importResultSchema);
    await confirmAndIndex(result.file.id);
    return result.file;
  }

  it("imports a CSV: one record per row as field: value lines, the first field as index, failed rows reported", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const result = await expectOk(await postFile(tablePath(base.id), "products.csv", products), 201, importResultSchema);
    expect(result.file).toMatchObject({ type: "table", name: "products", status: "pending" });
    expect(result.report).toMatchObject({
      totalRecords: 4,
      importedRecords: 3,
      failedRecords: 1,
      failures: [{ row: 4, reason: "The index column SKU is empty" }],
    });
    const row = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, result.file.id)).get();
    expect(JSON.parse(row!.options)).toMatchObject({ fields: ["SKU", "Name", "Price"], indexColumn: "SKU" });

    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${result.file.id}/preview`, { token: owner.token }), 200, previewSchema);
    expect(preview.segments[0]).toMatchObject({
      content: "SKU: A-100\nName: Electric kettle\nPrice: 39",
      metadata: { row: { SKU: "A-100", Name: "Electric kettle", Price: "39" } },
    });
    const pendingRows = await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${result.file.id}/table/rows`, { token: owner.token }),
      200,
      tableRowPageSchema,
    );
    expect(pendingRows).toMatchObject({ total: 3, fields: ["SKU", "Name", "Price"] });
    expect(pendingRows.items[0]!.id).toBeNull();

    await confirmAndIndex(result.file.id);
    const found = await expectOk(await search(base.id, "bread toaster"), 200, retrievalTestSchema);
    expect(found.fullText[0]!.content).toContain("A-200");
    expect(found.fullText[0]!.metadata).toMatchObject({ row: { SKU: "A-200" } });
  });

  it("imports an xlsx with a chosen index column", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const bytes = xlsxOf([
      ["Code", "City", "Hotline"],
      ["SH", "Shanghai", "021-1234"],
      ["BJ", "Beijing", "010-5678"],
    ]);
    const result = await expectOk(await postFile(tablePath(base.id), "hotlines.xlsx", bytes, { indexColumn: "City" }), 201, importResultSchema);
    expect(result.report).toMatchObject({ importedRecords: 2, failedRecords: 0, message: null });
    const table = await expectOk(await ctx.request(`/api/v1/knowledge-files/${result.file.id}/table`, { token: owner.token }), 200, tableSchema);
    expect(table).toMatchObject({ fields: ["Code", "City", "Hotline"], indexColumn: "City", rowCount: 2, status: "pending" });
  });

  it("refuses duplicate field names, an unknown index column, a GBK CSV and a damaged xlsx, storing nothing", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    await expectError(await postFile(tablePath(base.id), "dup.csv", "SKU,Name,SKU\n1,2,3\n"), 400, {
      field: "file",
      message: "Field names must be unique: SKU repeated",
    });
    await expectError(
      await postFile(
        tablePath(base.id),
        "dup.xlsx",
        xlsxOf([
          ["A", "A"],
          ["1", "2"],
        ]),
      ),
      400,
      { field: "file" },
    );
    await expectError(await postFile(tablePath(base.id), "p.csv", products, { indexColumn: "Colour" }), 400, { field: "indexColumn" });
    // "编号,名称" saved as GBK.
    const gbk = new Uint8Array([0xb1, 0xe0, 0xba, 0xc5, 0x2c, 0xc3, 0xfb, 0xb3, 0xc6, 0x0a, 0x31, 0x2c, 0x32, 0x0a]);
    await expectError(await postFile(tablePath(base.id), "gbk.csv", gbk), 400, { field: "file", message: "File encoding error (save as UTF-8)" });
    await expectError(await postFile(tablePath(base.id), "broken.xlsx", "not a zip at all"), 400, {
      field: "file",
      message: "The spreadsheet is damaged or cannot be read",
    });
    await expectError(await postFile(tablePath(base.id), "big.csv", `a\n${"x".repeat(10 * 1024 * 1024)}`), 400, { field: "file" });
    expect(await filesOf(base.id)).toEqual([]);
  });

  it("renames fields and re-indexes every row, but never moves the index column", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await effectiveTable(base.id);
    const columns = (json: Record<string, unknown>) =>
      ctx.request(`/api/v1/knowledge-files/${file.id}/table/columns`, { method: "PATCH", token: owner.token, json });

    await expectError(await columns({ fields: ["SKU", "Name", "Price"], indexColumn: "Name" }), 409, {
      message: "The index column cannot be changed once set (it is SKU)",
    });
    await expectError(await columns({ fields: ["SKU", "Name"] }), 400, { field: "fields" });
    await expectError(await columns({ fields: ["SKU", "SKU", "Price"] }), 400, { field: "fields", message: "Field names must be unique: SKU repeated" });

    const renamed = await expectOk(await columns({ fields: ["Article", "Product", "Cost"], indexColumn: "Article" }), 200, tableSchema);
    expect(renamed).toMatchObject({ fields: ["Article", "Product", "Cost"], indexColumn: "Article", rowCount: 3 });
    const chunks = await chunksOf(file.id);
    expect(chunks[0]!.content).toBe("Article: A-100\nProduct: Electric kettle\nCost: 39");
    expect(JSON.parse(chunks[0]!.metadata)).toEqual({ row: { Article: "A-100", Product: "Electric kettle", Cost: "39" } });
    const found = await expectOk(await search(base.id, "Product Cost toaster"), 200, retrievalTestSchema);
    expect(found.fullText[0]!.content).toContain("Product: Bread toaster");
  });

  it("lists, adds, edits and deletes rows, keeping the row metadata and the index in step", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await effectiveTable(base.id);
    const rowsPath = `/api/v1/knowledge-files/${file.id}/table/rows`;
    const page = await expectOk(await ctx.request(`${rowsPath}?pageSize=2`, { token: owner.token }), 200, tableRowPageSchema);
    expect(page).toMatchObject({ total: 3, pageSize: 2, fields: ["SKU", "Name", "Price"], indexColumn: "SKU" });
    expect(page.items.map((item) => item.values.SKU)).toEqual(["A-100", "A-200"]);

    const added = await expectOk(
      await ctx.request(rowsPath, { method: "POST", token: owner.token, json: { values: { SKU: "A-400", Name: "Coffee grinder" } } }),
      201,
      tableRowSchema,
    );
    expect(added).toMatchObject({ ordinal: 3, values: { SKU: "A-400", Name: "Coffee grinder", Price: "" } });
    expect((await expectOk(await search(base.id, "coffee grinder"), 200, retrievalTestSchema)).fullText[0]!.chunkId).toBe(added.id);

    const edited = await expectOk(
      await ctx.request(`${rowsPath}/${added.id}`, { method: "PATCH", token: owner.token, json: { values: { Price: "59", Name: "Burr grinder" } } }),
      200,
      tableRowSchema,
    );
    expect(edited.values).toEqual({ SKU: "A-400", Name: "Burr grinder", Price: "59" });
    const stored = (await chunksOf(file.id)).find((chunk) => chunk.id === added.id)!;
    expect(stored.content).toBe("SKU: A-400\nName: Burr grinder\nPrice: 59");
    expect(JSON.parse(stored.metadata)).toEqual({ row: { SKU: "A-400", Name: "Burr grinder", Price: "59" } });
    expect((await expectOk(await search(base.id, "burr grinder"), 200, retrievalTestSchema)).fullText[0]!.chunkId).toBe(added.id);

    await expectError(await ctx.request(rowsPath, { method: "POST", token: owner.token, json: { values: { Colour: "red", SKU: "A-9" } } }), 400, {
      message: "Unknown field Colour",
    });
    await expectError(await ctx.request(`${rowsPath}/${added.id}`, { method: "PATCH", token: owner.token, json: { values: { SKU: "" } } }), 400, {
      field: "values",
    });

    await expectOk(await ctx.request(`${rowsPath}/${added.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    expect((await chunksOf(file.id)).map((chunk) => chunk.id)).not.toContain(added.id);
    const totals = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id)).get();
    expect(totals!.chunkCount).toBe(3);
  });

  it("appends an import whose columns match the fields (any order), and names a mismatch", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await effectiveTable(base.id);
    const appendPath = `/api/v1/knowledge-files/${file.id}/table/imports`;
    await expectError(await postFile(appendPath, "more.csv", "SKU,Title,Price\nA-500,Blender,80\n"), 400, {
      field: "file",
      message: "Column names must match the table's fields; missing: Name; unexpected: Title",
    });
    await expectError(await postFile(appendPath, "more.csv", "SKU,Name,Price,Colour\nA-500,Blender,80,red\n"), 400, { message: /unexpected: Colour/ });
    const appended = await expectOk(
      await postFile(
        appendPath,
        "more.xlsx",
        xlsxOf([
          ["Price", "SKU", "Name"],
          ["80", "A-500", "Blender"],
        ]),
      ),
      200,
      importResultSchema,
    );
    expect(appended.report.importedRecords).toBe(1);
    expect(appended.file.chunkCount).toBe(4);
    const last = (await chunksOf(file.id)).at(-1)!;
    expect(last.content).toBe("SKU: A-500\nName: Blender\nPrice: 80");
    expect((await expectOk(await search(base.id, "blender"), 200, retrievalTestSchema)).fullText[0]!.chunkId).toBe(last.id);

    // A pending table grows before it is confirmed.
    const pending = await expectOk(await postFile(tablePath(base.id), "pending.csv", products), 201, importResultSchema);
    await expectOk(
      await postFile(`/api/v1/knowledge-files/${pending.file.id}/table/imports`, "more.csv", "Name,SKU,Price\nMixer,A-600,70\n"),
      200,
      importResultSchema,
    );
    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${pending.file.id}/preview`, { token: owner.token }), 200, previewSchema);
    expect(preview.totalSegments).toBe(4);
  });

  it("answers 404 for another space's table and 409 for a file that is not a table", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await effectiveTable(base.id);
    const before = await chunksOf(file.id);
    const row = before[0];
    const as = { token: stranger.token };
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/table`, as), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/table/rows`, as), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/table/rows`, { ...as, method: "POST", json: { values: { SKU: "X" } } }), 404);
    await expectError(
      await ctx.request(`/api/v1/knowledge-files/${file.id}/table/rows/${row!.id}`, { ...as, method: "PATCH", json: { values: { SKU: "X" } } }),
      404,
    );
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/table/rows/${row!.id}`, { ...as, method: "DELETE" }), 404);
    await expectError(
      await ctx.request(`/api/v1/knowledge-files/${file.id}/table/columns`, { ...as, method: "PATCH", json: { fields: ["a", "b", "c"] } }),
      404,
    );
    await expectError(await postFile(`/api/v1/knowledge-files/${file.id}/table/imports`, "more.csv", products, {}, stranger.token), 404);
    await expectError(await postFile(tablePath(base.id), "p.csv", products, {}, stranger.token), 404);
    expect(await chunksOf(file.id)).toEqual(before);
    expect(await filesOf(base.id)).toHaveLength(1);

    const qa = await expectOk(
      await postFile(`/api/v1/knowledge-bases/${base.id}/imports/qa`, "faq.csv", "question,answer,search method\nq,a,question\n"),
      201,
      importResultSchema,
    );
    await expectError(await ctx.request(`/api/v1/knowledge-files/${qa.file.id}/table`, { token: owner.token }), 409, {
      message: "This works only on table files",
    });
  });
});

describe("website import", () => {
  const websitePath = (knowledgeBaseId: string) => `/api/v1/knowledge-bases/${knowledgeBaseId}/imports/website`;
  const importSite = (knowledgeBaseId: string, json: Record<string, unknown>, token = owner.token, headers: Record<string, string> = {}) =>
    ctx.request(websitePath(knowledgeBaseId), { method: "POST", token, json, headers });

  it("fetches a page, keeps its readable text as Markdown under the page title, and indexes it", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await expectOk(await importSite(base.id, { url: `${site.url}/moved` }), 201, knowledgeFileSchema);
    expect(file).toMatchObject({ type: "website", status: "pending", name: "Returns-Policy-Shop", source: `${site.url}/moved`, failureReason: null });
    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/preview`, { token: owner.token }), 200, previewSchema);
    const text = preview.segments.map((segment) => segment.content).join("\n");
    expect(text).toContain("# Returns Policy | Shop");
    expect(text).toContain("within thirty days of delivery");
    expect(text).toContain(`[terms](${site.url}/terms)`);
    expect(text).not.toContain("Copyright the shop");
    const row = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id)).get();
    expect(JSON.parse(row!.options)).toMatchObject({ finalUrl: `${site.url}/returns` });

    await confirmAndIndex(file.id);
    const found = await expectOk(await search(base.id, "refund original payment method"), 200, retrievalTestSchema);
    expect(found.fullText[0]!.fileId).toBe(file.id);

    const named = await expectOk(await importSite(base.id, { url: `${site.url}/returns`, name: "returns-page" }), 201, knowledgeFileSchema);
    expect(named.name).toBe("returns-page");
  });

  it("refuses an address that is not http(s) with a 400 and stores nothing", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    for (const url of ["ftp://example.com/file", "example.com/page", "javascript:alert(1)", "http://"]) {
      await expectError(await importSite(base.id, { url }), 400, { field: "url", message: "The website address must start with http:// or https://" });
    }
    await expectError(await importSite(base.id, { url: `${site.url}/returns`, name: "no spaces allowed" }), 400, { field: "name" });
    expect(await filesOf(base.id)).toEqual([]);
  });

  it("keeps a failed file, 'this website does not support import', for redirects to private addresses, timeouts, non-HTML and unreadable pages", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const cases: Array<[string, RegExp]> = [
      [`${site.url}/to-internal`, /^refused: .*loopback, private or link-local/],
      [`${internal.url}/admin`, /^refused/],
      [`http://localhost:${internal.port}/admin`, /^refused/],
      [`${site.url}/slow`, /^timeout/],
      [`${site.url}/data.json`, /not an HTML page \(application\/json\)/],
      [`${site.url}/empty`, /no readable text/],
      [`${site.url}/huge`, /larger than 200000 bytes/],
      [`${site.url}/gone`, /HTTP 500/],
      [`${site.url}/missing`, /HTTP 404/],
    ];
    for (const [url, detail] of cases) {
      const started = Date.now();
      const file = await expectOk(await importSite(base.id, { url }), 201, knowledgeFileSchema);
      expect(file, url).toMatchObject({ type: "website", status: "failed", failureReason: "This website does not support import", chunkCount: 0 });
      expect(Date.now() - started).toBeLessThan(2_500);
      const row = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id)).get();
      expect(JSON.parse(row!.options).error, url).toMatch(detail);
    }
    const chinese = await expectOk(
      await importSite(base.id, { url: `${site.url}/empty` }, owner.token, { "accept-language": "zh-CN" }),
      201,
      knowledgeFileSchema,
    );
    expect(chinese.failureReason).toBe("该网站不支持导入");
    // Nothing of the internal page was stored anywhere.
    const stored = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.knowledgeBaseId, base.id)).all();
    expect(stored).toEqual([]);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${chinese.id}/preview`, { token: owner.token }), 409);
  });

  it("hides another space's knowledge base", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    await expectError(await importSite(base.id, { url: `${site.url}/returns` }, stranger.token), 404);
    await expectError(await ctx.request(websitePath(base.id), { method: "POST", json: { url: `${site.url}/returns` } }), 401);
    expect(await filesOf(base.id)).toEqual([]);
  });
});

describe("Feishu document import", () => {
  const authorizationPath = "/api/v1/knowledge-feishu/authorization";
  const feishuPath = (knowledgeBaseId: string) => `/api/v1/knowledge-bases/${knowledgeBaseId}/imports/feishu`;
  const saveAuthorization = (json: Record<string, unknown>, token = owner.token) => ctx.request(authorizationPath, { method: "PUT", token, json });
  const importDocument = (knowledgeBaseId: string, json: Record<string, unknown>, token = owner.token) =>
    ctx.request(feishuPath(knowledgeBaseId), { method: "POST", token, json });
  const documentUrl = "https://example.feishu.cn/docx/B4EPdAYx8oi8HRxgPQQbM15UcBf";

  it("saves the authorization only after Feishu accepts it, and never answers the secret", async () => {
    expect(await expectOk(await ctx.request(authorizationPath, { token: owner.token }), 200, feishuAuthorizationSchema)).toEqual({
      appId: null,
      configured: false,
      secretSet: false,
      updatedAt: null,
    });
    await expectError(await saveAuthorization({ appId: feishuApp.appId, appSecret: "wrong-secret" }), 400, {
      field: "appSecret",
      message: "Feishu refused the App ID or App Secret: app secret invalid (code 10014)",
    });
    await expectError(await saveAuthorization({ appId: "cli_unknown", appSecret: "whatever" }), 400, { message: /invalid param \(code 10003\)/ });
    await expectError(await saveAuthorization({ appId: feishuApp.appId }), 400, { field: "appSecret" });
    expect((await expectOk(await ctx.request(authorizationPath, { token: owner.token }), 200, feishuAuthorizationSchema)).configured).toBe(false);

    const response = await saveAuthorization(feishuApp);
    const text = await response.clone().text();
    expect(text).not.toContain(feishuApp.appSecret);
    expect(await expectOk(response, 200, feishuAuthorizationSchema)).toMatchObject({ appId: feishuApp.appId, configured: true, secretSet: true });
    // The secret may be left out to keep the saved one.
    await expectOk(await saveAuthorization({ appId: feishuApp.appId }), 200, feishuAuthorizationSchema);
    const read = await ctx.request(authorizationPath, { token: owner.token });
    expect(await read.clone().text()).not.toContain(feishuApp.appSecret);
    expect(await expectOk(read, 200, feishuAuthorizationSchema)).toMatchObject({ appId: feishuApp.appId, configured: true, secretSet: true });
    // Another space has its own (none).
    expect((await expectOk(await ctx.request(authorizationPath, { token: stranger.token }), 200, feishuAuthorizationSchema)).configured).toBe(false);
  });

  it("imports a docx document through Feishu's API, then indexes it so the retrieval test finds it", async () => {
    await expectOk(await saveAuthorization(feishuApp), 200, feishuAuthorizationSchema);
    const base = await createKnowledgeBaseVia(ctx, owner);
    const before = feishu.requests.length;
    const file = await expectOk(await importDocument(base.id, { url: documentUrl }), 201, knowledgeFileSchema);
    expect(file).toMatchObject({ type: "document", status: "pending", name: "Onboarding-Guide", source: documentUrl, failureReason: null });
    const calls = feishu.requests.slice(before);
    expect(calls.map((call) => call.path)).toEqual([
      "/open-apis/auth/v3/tenant_access_token/internal",
      "/open-apis/docx/v1/documents/B4EPdAYx8oi8HRxgPQQbM15UcBf",
      "/open-apis/docx/v1/documents/B4EPdAYx8oi8HRxgPQQbM15UcBf/raw_content",
    ]);
    expect(calls[1]!.authorization).toMatch(/^Bearer t-[0-9a-f]+$/);

    await confirmAndIndex(file.id);
    const found = await expectOk(await search(base.id, "where do I collect my badge"), 200, retrievalTestSchema);
    expect(found.fullText[0]).toMatchObject({ fileId: file.id, fileName: "Onboarding-Guide" });
    expect(found.fullText[0]!.content).toContain("front desk");
  });

  it("refuses addresses that are not https or not a docx document, and imports before authorization", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    await expectError(await importDocument(base.id, { url: "http://example.feishu.cn/docx/B4EPdAYx8oi8HRxgPQQbM15UcBf" }), 400, {
      field: "url",
      message: "Feishu addresses must start with https://",
    });
    await expectError(await importDocument(base.id, { url: "https://example.feishu.cn/wiki/B4EPdAYx8oi8HRxgPQQbM15UcBf" }), 400, { field: "url" });
    const strangersBase = await createKnowledgeBaseVia(ctx, stranger);
    await expectError(await importDocument(strangersBase.id, { url: documentUrl }, stranger.token), 409, { message: /Save the Feishu authorization/ });
    await expectError(await importDocument(base.id, { url: documentUrl }, stranger.token), 404);
    expect(await filesOf(base.id)).toEqual([]);
    expect(await filesOf(strangersBase.id)).toEqual([]);
  });

  it("keeps a failed file with Feishu's message for bad credentials, no permission or a missing document, the rest untouched", async () => {
    await expectOk(await saveAuthorization(feishuApp), 200, feishuAuthorizationSchema);
    const base = await createKnowledgeBaseVia(ctx, owner);
    const good = await expectOk(await importDocument(base.id, { url: documentUrl }), 201, knowledgeFileSchema);
    await confirmAndIndex(good.id);
    const chunksBefore = await chunksOf(good.id);

    const forbidden = await expectOk(
      await importDocument(base.id, { url: "https://example.feishu.cn/docx/PrivateDoc0000000000000001" }),
      201,
      knowledgeFileSchema,
    );
    expect(forbidden).toMatchObject({ status: "failed", failureReason: "Feishu: forbidden (code 1770032)", name: "feishu-PrivateDoc0000000000000001" });
    const missing = await expectOk(
      await importDocument(base.id, { url: "https://example.feishu.cn/docx/NoSuchDocument000000000001" }),
      201,
      knowledgeFileSchema,
    );
    expect(missing.failureReason).toBe("Feishu: not found (code 1770002)");

    feishu.rotateSecret(feishuApp.appId, "rotated-secret");
    try {
      const refused = await expectOk(await importDocument(base.id, { url: documentUrl, name: "retry" }), 201, knowledgeFileSchema);
      expect(refused).toMatchObject({ status: "failed", name: "retry", failureReason: "Feishu: app secret invalid (code 10014)" });
    } finally {
      feishu.rotateSecret(feishuApp.appId, feishuApp.appSecret);
    }
    expect(await chunksOf(good.id)).toEqual(chunksBefore);
    const statuses = (await filesOf(base.id)).map((file) => [file.id, file.status]);
    expect(statuses).toContainEqual([good.id, "effective"]);
    expect(statuses.filter(([, status]) => status === "failed")).toHaveLength(3);
  });
});

describe("media materials", () => {
  const mediaPath = (knowledgeBaseId: string) => `/api/v1/knowledge-bases/${knowledgeBaseId}/media`;
  const bytesOf = (head: number[] | string, size = 64) => {
    const start = typeof head === "string" ? [...head].map((character) => character.charCodeAt(0)) : head;
    const out = new Uint8Array(Math.max(size, start.length + 4));
    out.set(start);
    return out;
  };
  const png = bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const jpeg = bytesOf([0xff, 0xd8, 0xff, 0xe0]);
  const samples: Array<[string, Uint8Array, string]> = [
    ["map.png", png, "image/png"],
    ["photo.jpg", jpeg, "image/jpeg"],
    ["spinner.gif", bytesOf("GIF89a"), "image/gif"],
    ["banner.webp", bytesOf([...bytesOf("RIFF", 8).slice(0, 8), ...[..."WEBP"].map((c) => c.charCodeAt(0))]), "image/webp"],
    ["manual.pdf", bytesOf("%PDF-1.7\n"), "application/pdf"],
    ["tour.mp4", bytesOf([0, 0, 0, 0x18, ...[..."ftypisom"].map((c) => c.charCodeAt(0))]), "video/mp4"],
  ];

  it("uploads every accepted type, lists newest first in pages, renames, downloads and deletes", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const uploaded = [];
    for (const [fileName, bytes, mimeType] of samples) {
      const media = await expectOk(await postFile(mediaPath(base.id), fileName, bytes), 201, mediaSchema);
      expect(media, fileName).toMatchObject({ name: fileName, mimeType, sizeBytes: bytes.byteLength, knowledgeBaseId: base.id });
      uploaded.push(media);
    }
    const page = await expectOk(await ctx.request(`${mediaPath(base.id)}?pageSize=4`, { token: owner.token }), 200, mediaPageSchema);
    expect(page.total).toBe(6);
    expect(page.items.map((item) => item.name)).toEqual(["tour.mp4", "manual.pdf", "banner.webp", "spinner.gif"]);
    const second = await expectOk(await ctx.request(`${mediaPath(base.id)}?pageSize=4&pageNo=2`, { token: owner.token }), 200, mediaPageSchema);
    expect(second.items.map((item) => item.name)).toEqual(["photo.jpg", "map.png"]);

    const map = uploaded[0]!;
    const renamed = await expectOk(
      await ctx.request(`/api/v1/knowledge-media/${map.id}`, { method: "PATCH", token: owner.token, json: { name: "Delivery map 2026" } }),
      200,
      mediaSchema,
    );
    expect(renamed.name).toBe("Delivery map 2026");
    await expectError(await ctx.request(`/api/v1/knowledge-media/${map.id}`, { method: "PATCH", token: owner.token, json: { name: "../etc/passwd" } }), 400, {
      field: "name",
    });

    const content = await ctx.request(map.url, { token: owner.token });
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(png);
    await expectError(await ctx.request(map.url), 401);

    const stored = await ctx.deps.db.select().from(mediaMaterials).where(eq(mediaMaterials.id, map.id)).get();
    expect(stored!.storagePath.startsWith(ctx.dataDir)).toBe(true);
    await expectOk(await ctx.request(`/api/v1/knowledge-media/${map.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    expect(fs.existsSync(stored!.storagePath)).toBe(false);
    await expectError(await ctx.request(map.url, { token: owner.token }), 404);
  });

  it("checks the bytes, not only the extension, and the 15 MB limit", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    await expectError(await postFile(mediaPath(base.id), "fake.png", jpeg), 400, { field: "file", message: "The file's content is not PNG" });
    await expectError(await postFile(mediaPath(base.id), "script.png", "<script>alert(1)</script>"), 400, { field: "file" });
    await expectError(await postFile(mediaPath(base.id), "vector.svg", "<svg/>"), 400, { field: "file", message: /^Unsupported media type/ });
    await expectError(await postFile(mediaPath(base.id), "empty.png", new Uint8Array(0)), 400, { field: "file" });
    const big = new Uint8Array(15 * 1024 * 1024 + 1);
    big.set(png);
    await expectError(await postFile(mediaPath(base.id), "big.png", big), 400, { field: "file", message: "The file is larger than 15 MB" });
    const list = await expectOk(await ctx.request(mediaPath(base.id), { token: owner.token }), 200, mediaPageSchema);
    expect(list.total).toBe(0);
  });

  it("lets Q&A pairs attach a material of the same knowledge base", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const media = await expectOk(await postFile(mediaPath(base.id), "map.png", png), 201, mediaSchema);
    const other = await createKnowledgeBaseVia(ctx, owner);
    const foreign = await expectOk(await postFile(mediaPath(other.id), "map.png", png), 201, mediaSchema);
    const csv = `question,answer,search method,attached material\nWhere is the shop?,Next to the station.,question,${media.id}\nAnd the depot?,Behind it.,question,${foreign.id}\n`;
    const result = await expectOk(await postFile(`/api/v1/knowledge-bases/${base.id}/imports/qa`, "faq.csv", csv), 201, importResultSchema);
    expect(result.report).toMatchObject({ importedRecords: 1, failedRecords: 1, failures: [{ row: 3 }] });
    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${result.file.id}/preview`, { token: owner.token }), 200, previewSchema);
    expect(preview.segments[0]!.metadata).toMatchObject({ material: { type: "media", id: media.id } });
  });

  it("hides another space's materials and knowledge base", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const media = await expectOk(await postFile(mediaPath(base.id), "map.png", png), 201, mediaSchema);
    const as = { token: stranger.token };
    await expectError(await ctx.request(mediaPath(base.id), as), 404);
    await expectError(await postFile(mediaPath(base.id), "map.png", png, {}, stranger.token), 404);
    await expectError(await ctx.request(media.url, as), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-media/${media.id}`, { ...as, method: "PATCH", json: { name: "mine" } }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-media/${media.id}`, { ...as, method: "DELETE" }), 404);
    const still = await expectOk(await ctx.request(mediaPath(base.id), { token: owner.token }), 200, mediaPageSchema);
    expect(still.items.map((item) => [item.id, item.name])).toEqual([[media.id, "map.png"]]);
  });
});

describe("file export", () => {
  const exportOf = (fileId: string, token = owner.token, headers: Record<string, string> = {}) =>
    ctx.request(`/api/v1/knowledge-files/${fileId}/export`, { token, headers });

  it("answers a document's original bytes with its name", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const pdf = pdfOf("Returns are accepted within thirty days.");
    const file = await uploadOk(ctx, owner, base.id, "returns.pdf", pdf);
    const response = await exportOf(file.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain('attachment; filename="returns.pdf"');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf);
    const text = await uploadOk(ctx, owner, base.id, "notes.md", "# Notes\n\nKeep receipts.");
    expect(await (await exportOf(text.id)).text()).toBe("# Notes\n\nKeep receipts.");
  });

  it("exports a Q&A file's current pairs as a UTF-8 CSV in the request's language", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const csv =
      "question,answer,search method\nHow long do refunds take?,Five working days.,question\nDo you ship abroad?,Yes.,question_answer\nGift wrap?,Free.,question\n";
    const result = await expectOk(await postFile(`/api/v1/knowledge-bases/${base.id}/imports/qa`, "faq.csv", csv), 201, importResultSchema);
    await confirmAndIndex(result.file.id);
    const [first, , third] = await chunksOf(result.file.id);
    await ctx.request(`/api/v1/knowledge-segments/${first!.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { content: "Q: How long do refunds take?\nA: Three working days." },
    });
    await ctx.request(`/api/v1/knowledge-segments/${third!.id}`, { method: "DELETE", token: owner.token });

    const english = await exportOf(result.file.id);
    expect(english.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await english.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Decoders drop the BOM checked above.
    expect(new TextDecoder().decode(bytes)).toBe(
      "question,answer,search method,attached material\r\nHow long do refunds take?,Three working days.,question,\r\nDo you ship abroad?,Yes.,question_answer,\r\n",
    );
    const chinese = await (await exportOf(result.file.id, owner.token, { "accept-language": "zh-CN" })).text();
    expect(chinese).toContain("问题,答案,检索方式,附带素材\r\nHow long do refunds take?,Three working days.,仅问题,");
    // The export imports again as the same pairs.
    const again = await expectOk(await postFile(`/api/v1/knowledge-bases/${base.id}/imports/qa`, "again.csv", chinese), 201, importResultSchema);
    expect(again.report).toMatchObject({ importedRecords: 2, failedRecords: 0 });
  });

  it("exports a table's current rows, and a web page as Markdown", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const table = await expectOk(
      await postFile(`/api/v1/knowledge-bases/${base.id}/imports/table`, "prices.csv", "SKU,Price\nA-1,10\nA-2,20\n"),
      201,
      importResultSchema,
    );
    expect(await (await exportOf(table.file.id)).text()).toBe("SKU,Price\r\nA-1,10\r\nA-2,20\r\n");
    await confirmAndIndex(table.file.id);
    const [row] = await chunksOf(table.file.id);
    await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${table.file.id}/table/rows/${row!.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { values: { Price: "12, incl. tax" } },
      }),
      200,
      tableRowSchema,
    );
    expect(await (await exportOf(table.file.id)).text()).toBe('SKU,Price\r\nA-1,"12, incl. tax"\r\nA-2,20\r\n');

    const page = await expectOk(
      await ctx.request(`/api/v1/knowledge-bases/${base.id}/imports/website`, { method: "POST", token: owner.token, json: { url: `${site.url}/returns` } }),
      201,
      knowledgeFileSchema,
    );
    const markdown = await exportOf(page.id);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("content-disposition")).toContain("Returns-Policy-Shop.md");
    expect(await markdown.text()).toMatch(/^# Returns Policy \| Shop\n\n[\s\S]*within thirty days/);

    const failed = await expectOk(
      await ctx.request(`/api/v1/knowledge-bases/${base.id}/imports/website`, { method: "POST", token: owner.token, json: { url: `${site.url}/gone` } }),
      201,
      knowledgeFileSchema,
    );
    await expectError(await exportOf(failed.id), 409, { message: "This file has nothing to export" });
    await expectError(await exportOf(page.id, stranger.token), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${page.id}/export`), 401);
  });
});

describe("create-app document upload", () => {
  const appPath = (appId: string) => `/api/v1/apps/${appId}/knowledge-files`;
  const boundOf = async (appId: string) => JSON.parse((await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get())!.knowledgeBaseIds) as string[];

  it("puts documents up to 15 MB into the app's own knowledge base, made and bound on first use", async () => {
    const app = await createAppVia(ctx, owner, { name: "Returns helper" });
    const first = await expectOk(await postFile(appPath(app.id), "returns.txt", "Returns are accepted within thirty days."), 201, knowledgeFileSchema);
    expect(first).toMatchObject({ type: "document", status: "pending", name: "returns" });
    const own = await ctx.deps.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, first.knowledgeBaseId)).get();
    expect(own).toMatchObject({ name: "Returns helper", appId: app.id });
    expect(await boundOf(app.id)).toEqual([own!.id]);

    const large = await expectOk(await postFile(appPath(app.id), "manual.txt", "word ".repeat(Math.ceil((12 * 1024 * 1024) / 5))), 201, knowledgeFileSchema);
    expect(large.knowledgeBaseId).toBe(own!.id);
    expect(large.sizeBytes).toBeGreaterThan(10 * 1024 * 1024);
    await expectError(await postFile(appPath(app.id), "huge.txt", "a".repeat(15 * 1024 * 1024 + 1)), 400, {
      field: "file",
      message: "The file is larger than 15 MB",
    });
    // Elsewhere the limit stays 10 MB.
    await expectError(await postFile(`/api/v1/knowledge-bases/${own!.id}/files`, "manual.txt", "word ".repeat(Math.ceil((12 * 1024 * 1024) / 5))), 400, {
      field: "file",
    });
    await expectError(await postFile(appPath(app.id), "tool.exe", "MZ"), 400, { field: "file" });
    expect(await boundOf(app.id)).toEqual([own!.id]);

    await expectOk(await ctx.request(`/api/v1/knowledge-files/${first.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  });

  it("refuses another space's app, and an app already over the token limit, making nothing", async () => {
    const app = await createAppVia(ctx, owner, { name: "Limit bot" });
    await expectError(await postFile(appPath(app.id), "a.txt", "hello", {}, stranger.token), 404);

    const big = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, big.id, "big.txt", "some text");
    await expectOk(
      await ctx.request(`/api/v1/apps/${app.id}/knowledge-bases`, { method: "POST", token: owner.token, json: { knowledgeBaseIds: [big.id] } }),
      200,
      z.any(),
    );
    await ctx.deps.db.update(knowledgeFiles).set({ tokenCount: 1_000_001 }).where(eq(knowledgeFiles.id, file.id));
    await expectError(await postFile(appPath(app.id), "a.txt", "hello"), 400, { message: /Token limit exceeded/ });
    expect(await ctx.deps.db.select().from(knowledgeBases).where(eq(knowledgeBases.appId, app.id)).all()).toEqual([]);
    expect(await boundOf(app.id)).toEqual([big.id]);
  });
});
