import fs from "node:fs";
import path from "node:path";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeFiles, mediaMaterials } from "../../db/schema/index";
import { createKnowledgeBaseVia, uploadOk, uploadVia } from "../../knowledge/testing";
import { createKnowledgeWorker } from "../../knowledge/worker";
import { mediaSchema } from "../../knowledge/import-schemas";
import { expectError, expectOk } from "../../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import { type S3Server, startS3Server } from "../../testing/s3-server";
import { createS3FileStore } from "./s3";

let s3: S3Server;
let ctx: TestContext;
let owner: TestUser;
/** The bucket as an operator sees it, beside the instance's own store. */
let bucket: ReturnType<typeof createS3FileStore>;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext(s3.env("tenant-1"));
  owner = await registerUser(ctx, "s3-owner@example.com");
  bucket = createS3FileStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    prefix: "",
  });
});
afterAll(async () => {
  await ctx?.close();
  await s3?.stop();
});

const drain = () => createKnowledgeWorker(ctx.deps).drain();
const document = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: parcels are returned within thirty days, label number ${i}.`).join("\n\n");
const png = (() => {
  const bytes = new Uint8Array(300_000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  for (let i = 16; i < bytes.length; i++) bytes[i] = i % 253;
  return bytes;
})();

function postMedia(knowledgeBaseId: string, fileName: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], fileName));
  return ctx.request(`/api/v1/knowledge-bases/${knowledgeBaseId}/media`, { method: "POST", token: owner.token, body: form });
}

describe("stored files on S3 through the HTTP API", () => {
  it("keeps a knowledge file's original and prepared text in the bucket, indexes it and downloads the original", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, base.id, "returns.txt", document);
    const row = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id)).get();
    expect(row?.storagePath).toBe(`s3://${s3.bucket}/tenant-1/knowledge/${base.id}/${file.id}.txt`);
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, z.unknown());
    expect(await drain()).toBe(1);
    const indexed = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id)).get();
    expect(indexed?.status).toBe("effective");
    expect(indexed?.chunkCount).toBeGreaterThan(0);

    const keys = await bucket.list(`tenant-1/knowledge/${base.id}/`);
    expect(keys).toContain(`tenant-1/knowledge/${base.id}/${file.id}.txt`);
    expect(keys).toContain(`tenant-1/knowledge/${base.id}/${file.id}.prepared.json`);
    // Nothing of it went to the data folder.
    expect(fs.existsSync(path.join(ctx.dataDir, "knowledge"))).toBe(false);

    const exported = await ctx.request(`/api/v1/knowledge-files/${file.id}/export`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe(document);

    // Deleting the knowledge base removes its objects from the bucket.
    await expectOk(await ctx.request(`/api/v1/knowledge-bases/${base.id}`, { method: "DELETE", token: owner.token }), 200, z.unknown());
    expect(await bucket.list(`tenant-1/knowledge/${base.id}/`)).toEqual([]);
  });

  it("streams a media download from the bucket", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const media = await expectOk(await postMedia(base.id, "map.png", png), 201, mediaSchema);
    const row = await ctx.deps.db.select().from(mediaMaterials).where(eq(mediaMaterials.id, media.id)).get();
    expect(row?.storagePath).toBe(`s3://${s3.bucket}/tenant-1/knowledge/${base.id}/media/${media.id}.png`);
    const url = await ctx.listen();
    const response = await fetch(`${url}/api/v1/knowledge-media/${media.id}/content`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    // Sent as it is read, in chunks, not as one buffered body.
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    let chunks = 0;
    const received: Uint8Array[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks += 1;
      received.push(chunk);
    }
    expect(chunks).toBeGreaterThan(1);
    expect(new Uint8Array(Buffer.concat(received))).toEqual(png);
  });

  it("answers a clear error in English and Chinese while S3 is down, changes nothing, and works again when it is back", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const file = await uploadOk(ctx, owner, base.id, "kept.txt", "Kept through the outage.");
    const media = await expectOk(await postMedia(base.id, "kept.png", png), 201, mediaSchema);
    const before = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, base.id)).all();
    await s3.kill();
    try {
      await expectError(await ctx.request(`/api/v1/knowledge-files/${file.id}/export`, { token: owner.token }), 502, {
        message: "File storage is unavailable right now; try again shortly",
      });
      await expectError(
        await ctx.request(`/api/v1/knowledge-media/${media.id}/content`, { token: owner.token, headers: { "accept-language": "zh-CN" } }),
        502,
        {
          message: "文件存储暂时不可用，请稍后再试",
        },
      );
      await expectError(await uploadVia(ctx, owner, base.id, "during.txt", "Written while S3 is down."), 502, {
        message: "File storage is unavailable right now; try again shortly",
      });
      await expectError(await postMedia(base.id, "during.png", png), 502);
      // The failed upload left no row behind.
      expect(await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, base.id)).all()).toEqual(before);
    } finally {
      await s3.start();
    }
    const exported = await ctx.request(`/api/v1/knowledge-files/${file.id}/export`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe("Kept through the outage.");
    await uploadOk(ctx, owner, base.id, "after.txt", "Written once S3 is back.");
  });
});
