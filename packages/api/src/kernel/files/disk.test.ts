import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDiskFileStore } from "./disk";
import { FileKeyError } from "./port";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-files-"));
const store = createDiskFileStore(root);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function text(stream: ReadableStream<Uint8Array> | undefined) {
  if (!stream) return undefined;
  return new Response(stream).text();
}

describe("the disk file store", () => {
  it("keeps an object under its key in the folder layout keys name", async () => {
    await store.put("knowledge/kb_1/kf_1.txt", "hello");
    expect(fs.readFileSync(path.join(root, "knowledge", "kb_1", "kf_1.txt"), "utf8")).toBe("hello");
    expect(store.locate("knowledge/kb_1/kf_1.txt")).toBe(path.join(root, "knowledge", "kb_1", "kf_1.txt"));
    expect(new TextDecoder().decode(await store.read("knowledge/kb_1/kf_1.txt"))).toBe("hello");
    expect(await text(await store.get("knowledge/kb_1/kf_1.txt"))).toBe("hello");
    const stat = await store.stat("knowledge/kb_1/kf_1.txt");
    expect(stat?.sizeBytes).toBe(5);
    await store.put("knowledge/kb_1/kf_1.txt", new Uint8Array([1, 2, 3]));
    expect(await store.read("knowledge/kb_1/kf_1.txt")).toEqual(new Uint8Array([1, 2, 3]));
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.join(root, "knowledge", "kb_1"))).toEqual(["kf_1.txt"]);
  });

  it("answers undefined for what is not there, and deleting it twice is fine", async () => {
    expect(await store.read("nothing/here.txt")).toBeUndefined();
    expect(await store.get("nothing/here.txt")).toBeUndefined();
    expect(await store.stat("knowledge")).toBeUndefined();
    expect(await store.read("knowledge")).toBeUndefined();
    await store.put("a/b.txt", "x");
    await store.delete("a/b.txt");
    await store.delete("a/b.txt");
    expect(await store.read("a/b.txt")).toBeUndefined();
  });

  it("lists by prefix and removes a whole prefix", async () => {
    await store.put("kb/k2/one.json", "1");
    await store.put("kb/k2/media/two.png", "2");
    await store.put("kb/k20/other.json", "3");
    expect(await store.list("kb/k2/")).toEqual(["kb/k2/media/two.png", "kb/k2/one.json"]);
    expect(await store.list("kb/k2")).toEqual(["kb/k2/media/two.png", "kb/k2/one.json", "kb/k20/other.json"]);
    expect(await store.list("missing/")).toEqual([]);
    expect(await store.deletePrefix("kb/k2/")).toBe(2);
    expect(fs.existsSync(path.join(root, "kb", "k2"))).toBe(false);
    expect(await store.list("kb/")).toEqual(["kb/k20/other.json"]);
  });

  it("refuses keys that are not plain relative keys", async () => {
    for (const key of ["../secret", "a/../../b", "/etc/passwd", "a//b", "a\\b", "", "./a", "a/"]) {
      await expect(store.read(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(store.put(key, "x")).rejects.toBeInstanceOf(FileKeyError);
    }
    await expect(store.list("../")).rejects.toBeInstanceOf(FileKeyError);
    expect(fs.existsSync(path.join(root, "..", "secret"))).toBe(false);
  });
});
