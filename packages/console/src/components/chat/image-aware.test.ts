import { describe, expect, it } from "vitest";
import { imageAware, isImageFile } from "./use-pending-files";

const answer = { ok: true as const, data: { id: "cf_1", name: "a", kind: "image" as const, mimeType: "image/png", sizeBytes: 1, url: "/x", createdAt: "" } };

describe("imageAware", () => {
  it("refuses images at once for a model that reads none, and passes documents and vision models through", async () => {
    const calls: string[] = [];
    const upload = (file: File) => {
      calls.push(file.name);
      return Promise.resolve(answer);
    };
    const png = new File([new Uint8Array([1])], "shot.png", { type: "image/png" });
    const pdf = new File([new Uint8Array([1])], "terms.pdf", { type: "application/pdf" });
    const refused = await imageAware(upload, "deepseek-chat", ["gpt-4.1-mini"])(png);
    expect(refused).toMatchObject({ ok: false });
    expect(refused.ok ? "" : refused.error.message).toContain("deepseek-chat");
    expect(await imageAware(upload, "deepseek-chat", ["gpt-4.1-mini"])(pdf)).toBe(answer);
    expect(await imageAware(upload, "gpt-4.1-mini", ["gpt-4.1-mini"])(png)).toBe(answer);
    expect(calls).toEqual(["terms.pdf", "shot.png"]);
    expect(isImageFile({ type: "", name: "photo.JPG" })).toBe(true);
  });
});
