import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../../errors";
import { type FeishuFake, startFeishuFake } from "../../../testing/fakes/feishu";
import { FeishuError, fetchFeishuDocument, parseFeishuDocumentUrl, tenantAccessToken } from "./feishu";

let fake: FeishuFake;
const app = { appId: "cli_test", appSecret: "s3cret" };

beforeAll(async () => {
  fake = await startFeishuFake({ apps: [app], documents: [{ documentId: "Doc0000000000000000000001", title: "Guide", content: "Body text" }] });
});
afterAll(async () => fake.close());

describe("Feishu source", () => {
  it("reads the document id of an https docx address", () => {
    expect(parseFeishuDocumentUrl("https://acme.feishu.cn/docx/B4EPdAYx8oi8HRxgPQQbM15UcBf?from=share").documentId).toBe("B4EPdAYx8oi8HRxgPQQbM15UcBf");
    expect(() => parseFeishuDocumentUrl("http://acme.feishu.cn/docx/B4EPdAYx8oi8HRxgPQQbM15UcBf")).toThrow(ServiceError);
    expect(() => parseFeishuDocumentUrl("https://acme.feishu.cn/sheets/B4EPdAYx8oi8HRxgPQQbM15UcBf")).toThrow(/feishu_document_unsupported/);
  });

  it("gets a tenant token, then the title and raw content; Feishu's refusals carry its code and message", async () => {
    const token = await tenantAccessToken(fake.url, app);
    expect(await fetchFeishuDocument(fake.url, token, "Doc0000000000000000000001")).toEqual({ title: "Guide", content: "Body text" });
    await expect(tenantAccessToken(fake.url, { ...app, appSecret: "nope" })).rejects.toMatchObject({ code: 10014, feishuMessage: "app secret invalid" });
    fake.revokeTokens();
    await expect(fetchFeishuDocument(fake.url, token, "Doc0000000000000000000001")).rejects.toMatchObject({ code: 99991663 });
    const unreachable = await tenantAccessToken("http://127.0.0.1:9", app).catch((error: unknown) => error);
    expect(unreachable).toBeInstanceOf(FeishuError);
    expect((unreachable as FeishuError).code).toBe(-1);
  });
});
