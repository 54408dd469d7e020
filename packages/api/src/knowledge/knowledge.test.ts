import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps, jobs, knowledgeChunks, knowledgeFiles } from "../db/schema/index";
import { claimJob } from "../jobs/queue";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { createAppVia } from "../apps/testing";
import { boundKnowledgeBasesSchema, deletedSchema, knowledgeBaseSchema, knowledgeFileSchema, previewSchema, segmentPageSchema, segmentSchema } from "./schemas";
import { segmentForSearch } from "./retrieval/text";
import { INDEX_FILE_JOB } from "./service/files";
import { indexFile } from "./service/indexing";
import { createKnowledgeBaseVia, docxOf, expectContiguous, pdfOf, uploadOk, uploadVia, zipOf } from "./testing";
import { createKnowledgeWorker } from "./worker";

const clock = manualClock(Date.parse("2026-03-01T10:00:00.000Z"));
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  owner = await registerUser(ctx, "kb-owner@example.com");
  stranger = await registerUser(ctx, "kb-stranger@example.com");
});
afterAll(async () => ctx.close());

const chunksOf = (fileId: string) => ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).all();
const fileRow = (fileId: string) => ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId)).get();
const drain = () => createKnowledgeWorker(ctx.deps).drain();

/** Paragraphs of distinct English text, `count` of them. */
const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, index) => `Paragraph ${index} explains how returns number ${index} are handled within thirty days of delivery.`).join(
    "\n\n",
  );

describe("knowledge bases", () => {
  it("creates, lists, reads, updates and deletes, with defaults and stored rows", async () => {
    const created = await createKnowledgeBaseVia(ctx, owner, { name: "  Manuals  ", description: "All manuals" });
    expect(created).toMatchObject({ name: "Manuals", description: "All manuals", chunkTokens: 500, chunkOverlap: 50, fileCount: 0, tokenCount: 0 });
    expect(created.id).toMatch(/^kb_/);

    const list = await expectOk(await ctx.request("/api/v1/knowledge-bases", { token: owner.token }), 200, z.array(knowledgeBaseSchema));
    expect(list.map((base) => base.id)).toContain(created.id);

    const updated = await expectOk(
      await ctx.request(`/api/v1/knowledge-bases/${created.id}`, { method: "PATCH", token: owner.token, json: { name: "Guides", chunkTokens: 300 } }),
      200,
      knowledgeBaseSchema,
    );
    expect(updated).toMatchObject({ name: "Guides", chunkTokens: 300, chunkOverlap: 50 });
    const detail = await expectOk(await ctx.request(`/api/v1/knowledge-bases/${created.id}`, { token: owner.token }), 200, knowledgeBaseSchema);
    expect(detail.name).toBe("Guides");

    await expectOk(await ctx.request(`/api/v1/knowledge-bases/${created.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${created.id}`, { token: owner.token }), 404);
  });

  it("names the field of invalid input", async () => {
    await expectError(await ctx.request("/api/v1/knowledge-bases", { method: "POST", token: owner.token, json: { name: "" } }), 400, { field: "name" });
    await expectError(
      await ctx.request("/api/v1/knowledge-bases", { method: "POST", token: owner.token, json: { name: "x", chunkTokens: 100, chunkOverlap: 100 } }),
      400,
      { field: "chunkOverlap" },
    );
    await expectError(await ctx.request("/api/v1/knowledge-bases", { method: "POST", json: { name: "x" } }), 401);
  });

  it("hides another space's knowledge base: read, update, delete, list files, upload and bind all answer 404", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const as = { token: stranger.token };
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}`, as), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}`, { ...as, method: "PATCH", json: { name: "mine" } }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}`, { ...as, method: "DELETE" }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-bases/${base.id}/files`, as), 404);
    await expectError(await uploadVia(ctx, stranger, base.id, "notes.txt", "hello"), 404);
    const list = await expectOk(await ctx.request("/api/v1/knowledge-bases", as), 200, z.array(knowledgeBaseSchema));
    expect(list.map((item) => item.id)).not.toContain(base.id);

    const strangersApp = await createAppVia(ctx, stranger);
    await expectError(
      await ctx.request(`/api/v1/apps/${strangersApp.id}/knowledge-bases`, { ...as, method: "POST", json: { knowledgeBaseIds: [base.id] } }),
      404,
    );
    expect(JSON.parse((await ctx.deps.db.select().from(apps).where(eq(apps.id, strangersApp.id)).get())!.knowledgeBaseIds)).toEqual([]);
  });

  it("binds knowledge bases to an app of the same space, and unbinds them when deleted", async () => {
    const first = await createKnowledgeBaseVia(ctx, owner);
    const second = await createKnowledgeBaseVia(ctx, owner);
    const app = await createAppVia(ctx, owner);
    const bind = (ids: string[], token = owner.token) =>
      ctx.request(`/api/v1/apps/${app.id}/knowledge-bases`, { method: "POST", token, json: { knowledgeBaseIds: ids } });
    expect((await expectOk(await bind([first.id]), 200, boundKnowledgeBasesSchema)).knowledgeBaseIds).toEqual([first.id]);
    expect((await expectOk(await bind([second.id, first.id]), 200, boundKnowledgeBasesSchema)).knowledgeBaseIds).toEqual([first.id, second.id]);
    await expectError(await bind([second.id], stranger.token), 404);

    await ctx.request(`/api/v1/knowledge-bases/${first.id}`, { method: "DELETE", token: owner.token });
    const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, app.id)).get();
    expect(JSON.parse(row!.knowledgeBaseIds)).toEqual([second.id]);
  });

  it("refuses a binding that would put more than 1,000,000 tokens in one app", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, base.id, "big.txt", "some text");
    await ctx.deps.db.update(knowledgeFiles).set({ tokenCount: 1_000_001 }).where(eq(knowledgeFiles.id, file.id));
    const app = await createAppVia(ctx, owner);
    await expectError(
      await ctx.request(`/api/v1/apps/${app.id}/knowledge-bases`, { method: "POST", token: owner.token, json: { knowledgeBaseIds: [base.id] } }),
      400,
      { message: /Token limit exceeded/ },
    );
  });
});

describe("import flow", () => {
  it("uploads a text file, previews its first 50 segments, confirms it and indexes it into chunk rows", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    const file = await uploadOk(ctx, owner, base.id, "returns-policy.txt", paragraphs(200));
    expect(file).toMatchObject({ name: "returns-policy", type: "document", status: "pending", chunkCount: 0, source: "returns-policy.txt" });

    const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/preview`, { token: owner.token }), 200, previewSchema);
    expect(preview.totalSegments).toBeGreaterThan(50);
    expect(preview.segments).toHaveLength(50);
    expect(preview.segments[0]!.content).toContain("Paragraph 0");

    const confirmed = await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }),
      200,
      knowledgeFileSchema,
    );
    expect(confirmed.status).toBe("processing");
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 409);
    expect(await drain()).toBe(1);

    const files = await expectOk(await ctx.request(`/api/v1/knowledge-bases/${base.id}/files`, { token: owner.token }), 200, z.array(knowledgeFileSchema));
    expect(files[0]).toMatchObject({ id: file.id, status: "effective", progress: 100, chunkCount: preview.totalSegments, tokenCount: preview.tokenCount });
    const chunks = await chunksOf(file.id);
    expect(chunks).toHaveLength(preview.totalSegments);
    expectContiguous(chunks.map((chunk) => chunk.ordinal));
    expect(chunks.find((chunk) => chunk.ordinal === 0)!.searchText).toBe(segmentForSearch(preview.segments[0]!.content));
  });

  it("reads Markdown, Word and PDF documents", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const cases: Array<[string, Uint8Array | string, string]> = [
      ["guide.md", "# Setup\n\nPlug the router in.", "Plug the router in."],
      ["guide.docx", docxOf(["Warranty lasts two years.", "Keep the receipt."]), "Warranty lasts two years."],
      ["guide.pdf", pdfOf("Shipping takes five days"), "Shipping takes five days"],
    ];
    for (const [name, bytes, expected] of cases) {
      const file = await uploadOk(ctx, owner, base.id, name, bytes);
      expect(file.status, name).toBe("pending");
      const preview = await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/preview`, { token: owner.token }), 200, previewSchema);
      expect(preview.segments.map((segment) => segment.content).join("\n"), name).toContain(expected);
    }
  });

  it("refuses bad uploads with a named field and keeps unreadable documents as failed with their reason", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const gbk = new Uint8Array([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]);
    await expectError(await uploadVia(ctx, owner, base.id, "notes.txt", gbk), 400, { field: "file", message: "File encoding error (save as UTF-8)" });
    const zh = await ctx.request(`/api/v1/knowledge-bases/${base.id}/files`, {
      method: "POST",
      token: owner.token,
      headers: { "accept-language": "zh-CN" },
      body: (() => {
        const form = new FormData();
        form.append("file", new File([gbk], "notes.txt"));
        return form;
      })(),
    });
    await expectError(zh, 400, { field: "file", message: "文件编码错误（请另存为 UTF-8）" });
    await expectError(await uploadVia(ctx, owner, base.id, "bad name!.txt", "hello"), 400, { field: "name" });
    await expectError(await uploadVia(ctx, owner, base.id, `${"a".repeat(51)}.txt`, "hello"), 400, { field: "name" });
    await expectError(await uploadVia(ctx, owner, base.id, "ok.txt", "hello", "also bad"), 400, { field: "name" });
    await expectError(await uploadVia(ctx, owner, base.id, "image.png", "hello"), 400, { field: "file" });
    await expectError(await uploadVia(ctx, owner, base.id, "big.txt", "a".repeat(10 * 1024 * 1024 + 1)), 400, { field: "file" });
    await expectError(await uploadVia(ctx, owner, base.id, "empty.txt", ""), 400, { field: "file" });

    const corrupt = await uploadOk(ctx, owner, base.id, "broken.pdf", "%PDF-1.4 this is not really a pdf");
    expect(corrupt).toMatchObject({ status: "failed", failureReason: "The PDF is damaged or cannot be read" });
    const empty = await uploadOk(ctx, owner, base.id, "blank.pdf", pdfOf(""));
    expect(empty).toMatchObject({ status: "failed", failureReason: "The document contains no text" });
    const notZip = await uploadOk(ctx, owner, base.id, "broken.docx", "not a zip at all");
    expect(notZip.status).toBe("failed");
    const zeros = new Uint8Array(60 * 1024 * 1024);
    const bomb = zipOf(["a", "b", "c", "d"].map((name) => ({ name: `word/${name}.xml`, data: zeros })));
    expect(bomb.byteLength).toBeLessThan(10 * 1024 * 1024);
    const bombed = await uploadOk(ctx, owner, base.id, "bomb.docx", bomb);
    expect(bombed).toMatchObject({ status: "failed", failureReason: "The Word document unpacks to more than the allowed size" });
    await expectError(await ctx.request(`/api/v1/knowledge-files/${bombed.id}/confirm`, { method: "POST", token: owner.token }), 409);

    const stored = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, base.id)).all();
    expect(stored.map((row) => row.status).sort()).toEqual(["failed", "failed", "failed", "failed"]);
  });

  it("renames and deletes files; another space's file answers 404 everywhere", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, base.id, "faq.txt", "Question one.\n\nAnswer one.");
    const as = { token: stranger.token };
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/preview`, as), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { ...as, method: "POST" }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}`, { ...as, method: "PATCH", json: { name: "x" } }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}`, { ...as, method: "DELETE" }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/segments`, as), 404);

    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}`, { method: "PATCH", token: owner.token, json: { name: "no spaces" } }), 400, {
      field: "name",
    });
    const renamed = await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${file.id}`, { method: "PATCH", token: owner.token, json: { name: "faq-2026" } }),
      200,
      knowledgeFileSchema,
    );
    expect(renamed.name).toBe("faq-2026");
    await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token });
    await drain();
    expect((await chunksOf(file.id)).length).toBeGreaterThan(0);
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    expect(await fileRow(file.id)).toBeUndefined();
    expect(await chunksOf(file.id)).toHaveLength(0);
  });
});

describe("segments", () => {
  it("lists, adds, edits, disables and deletes segments, keeping the file's totals", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, base.id, "manual.txt", "First part.\n\nSecond part.");
    await ctx
      .request(`/api/v1/knowledge-files/${file.id}/segments`, { method: "POST", token: owner.token, json: { content: "early" } })
      .then((response) => expectError(response, 409));
    await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token });
    await drain();

    const page = await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/segments?pageSize=10`, { token: owner.token }), 200, segmentPageSchema);
    expect(page.total).toBe(1);
    const added = await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${file.id}/segments`, { method: "POST", token: owner.token, json: { content: "Third part, added by hand." } }),
      201,
      segmentSchema,
    );
    expect(added.ordinal).toBe(1);
    await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/segments`, { method: "POST", token: owner.token, json: { content: "   " } }), 400, {
      field: "content",
    });

    const edited = await expectOk(
      await ctx.request(`/api/v1/knowledge-segments/${added.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { content: "Third part, EDITED.", enabled: false },
      }),
      200,
      segmentSchema,
    );
    expect(edited).toMatchObject({ content: "Third part, EDITED.", enabled: false });
    const stored = (await chunksOf(file.id)).find((chunk) => chunk.id === added.id)!;
    expect(stored).toMatchObject({ searchText: segmentForSearch("Third part, EDITED."), enabled: false });
    expect(stored.searchText).toContain("edit");
    expect((await fileRow(file.id))!.chunkCount).toBe(2);

    await expectError(await ctx.request(`/api/v1/knowledge-segments/${added.id}`, { method: "PATCH", token: stranger.token, json: { enabled: true } }), 404);
    await expectError(await ctx.request(`/api/v1/knowledge-segments/${added.id}`, { method: "DELETE", token: stranger.token }), 404);
    await expectOk(await ctx.request(`/api/v1/knowledge-segments/${added.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    expect((await fileRow(file.id))!.chunkCount).toBe(1);
  });
});

describe("durable indexing", () => {
  it("resumes a file whose worker died mid-indexing once the lease expires, with no duplicate chunks", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    const file = await uploadOk(ctx, owner, base.id, "long-manual.txt", paragraphs(700));
    await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token });

    // A worker claims the job, writes the first batch of chunks and dies (its heartbeat is where it stops).
    const job = await claimJob(ctx.deps.db, clock.now(), { kinds: [INDEX_FILE_JOB], leaseMs: 30_000 });
    expect(job).toBeDefined();
    await expect(
      indexFile(ctx.deps, file.id, async () => {
        throw new Error("killed");
      }),
    ).rejects.toThrow("killed");
    const partial = await chunksOf(file.id);
    expect(partial.length).toBeGreaterThan(0);
    expect((await fileRow(file.id))!.status).toBe("processing");

    // While the lease holds nobody else takes the job; after it expires the next worker does.
    expect(await drain()).toBe(0);
    clock.advance(31_000);
    expect(await drain()).toBe(1);

    const row = await fileRow(file.id);
    const chunks = await chunksOf(file.id);
    expect(row).toMatchObject({ status: "effective", progress: 100, chunkCount: chunks.length });
    expect(chunks.length).toBeGreaterThan(partial.length);
    expectContiguous(chunks.map((chunk) => chunk.ordinal));
    // The chunks written before the crash were kept, not rewritten.
    const kept = new Set(chunks.map((chunk) => chunk.id));
    expect(partial.every((chunk) => kept.has(chunk.id))).toBe(true);
    expect(await ctx.deps.db.select().from(jobs).where(eq(jobs.id, job!.id)).get()).toMatchObject({ status: "done", attempts: 2 });
  });
});
