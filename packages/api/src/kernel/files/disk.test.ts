import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3Server, startS3Server } from "../../testing/s3-server";
import { createDiskFileStore } from "./disk";
import { FileKeyError, type FileStore } from "./port";
import { createS3FileStore } from "./s3";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-files-"));
let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  fs.rmSync(root, { recursive: true, force: true });
  await s3?.stop();
});

async function text(stream: ReadableStream<Uint8Array> | undefined) {
  if (!stream) return undefined;
  return new Response(stream).text();
}

/** Each store of the port, with where its objects are expected to be found. */
const stores: { name: string; open: () => FileStore; where: (key: string) => string }[] = [
  { name: "disk", open: () => createDiskFileStore(root), where: (key) => path.join(root, ...key.split("/")) },
  {
    name: "S3",
    open: () =>
      createS3FileStore({
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
        prefix: "instance-a/",
      }),
    where: (key) => `s3://${s3.bucket}/instance-a/${key}`,
  },
];

describe.each(stores)("the $name file store", ({ name, open, where }) => {
  let store: FileStore;
  beforeAll(() => {
    store = open();
  });

  it("keeps an object under its key and locates it where the store keeps it", async () => {
    await store.put("knowledge/kb_1/kf_1.txt", "hello");
    if (name === "disk") expect(fs.readFileSync(path.join(root, "knowledge", "kb_1", "kf_1.txt"), "utf8")).toBe("hello");
    expect(store.locate("knowledge/kb_1/kf_1.txt")).toBe(where("knowledge/kb_1/kf_1.txt"));
    expect(new TextDecoder().decode(await store.read("knowledge/kb_1/kf_1.txt"))).toBe("hello");
    expect(await text(await store.get("knowledge/kb_1/kf_1.txt"))).toBe("hello");
    const stat = await store.stat("knowledge/kb_1/kf_1.txt");
    expect(stat?.sizeBytes).toBe(5);
    expect(stat?.key).toBe("knowledge/kb_1/kf_1.txt");
    expect(Math.abs((stat?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    await store.put("knowledge/kb_1/kf_1.txt", new Uint8Array([1, 2, 3]));
    expect(await store.read("knowledge/kb_1/kf_1.txt")).toEqual(new Uint8Array([1, 2, 3]));
    expect(await store.list("knowledge/kb_1/")).toEqual(["knowledge/kb_1/kf_1.txt"]);
    // No temporary file is left beside it.
    if (name === "disk") expect(fs.readdirSync(path.join(root, "knowledge", "kb_1"))).toEqual(["kf_1.txt"]);
  });

  it("answers undefined for what is not there, and deleting it twice is fine", async () => {
    expect(await store.read("nothing/here.txt")).toBeUndefined();
    expect(await store.get("nothing/here.txt")).toBeUndefined();
    expect(await store.stat("nothing/here.txt")).toBeUndefined();
    // A "folder" of keys is not an object.
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
    if (name === "disk") expect(fs.existsSync(path.join(root, "kb", "k2"))).toBe(false);
    expect(await store.list("kb/")).toEqual(["kb/k20/other.json"]);
    expect(await store.deletePrefix("missing/")).toBe(0);
  });

  it("refuses keys that are not plain relative keys", async () => {
    for (const key of ["../secret", "a/../../b", "/etc/passwd", "a//b", "a\\b", "", "./a", "a/", "a/\u0000b"]) {
      await expect(store.read(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(store.get(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(FileKeyError);
      await expect(store.put(key, "x")).rejects.toBeInstanceOf(FileKeyError);
      expect(() => store.locate(key)).toThrow(FileKeyError);
    }
    await expect(store.list("../")).rejects.toBeInstanceOf(FileKeyError);
    await expect(store.deletePrefix("a/../")).rejects.toBeInstanceOf(FileKeyError);
    expect(fs.existsSync(path.join(root, "..", "secret"))).toBe(false);
  });
});
