import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "../../errors";
import { type S3Server, startS3Server } from "../../testing/s3-server";
import { checkS3Bucket, createS3FileStore, type S3FileStoreConfig, S3UnavailableError } from "./s3";

let s3: S3Server;
let config: S3FileStoreConfig;
beforeAll(async () => {
  s3 = await startS3Server();
  config = {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    prefix: "",
  };
});
afterAll(async () => {
  await s3?.stop();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("the S3 file store", () => {
  it("streams a 20 MB object in small chunks without reading it whole first", async () => {
    const store = createS3FileStore(config);
    const big = new Uint8Array(20 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
    await store.put("big/object.bin", big);
    expect((await store.stat("big/object.bin"))?.sizeBytes).toBe(big.length);

    const before = process.memoryUsage().arrayBuffers;
    const stream = await store.get("big/object.bin");
    // The stream is handed over before its body is read: nothing near 20 MB is held yet.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024);
    const hash = createHash("sha256");
    let chunks = 0;
    let largest = 0;
    let total = 0;
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      chunks += 1;
      largest = Math.max(largest, chunk.byteLength);
      total += chunk.byteLength;
      hash.update(chunk);
    }
    expect(total).toBe(big.length);
    expect(hash.digest("hex")).toBe(sha256(big));
    expect(chunks).toBeGreaterThan(20);
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
    await store.delete("big/object.bin");
  }, 60_000);

  it("lists and deletes a prefix past one page of 1,000 keys", async () => {
    const store = createS3FileStore({ ...config, prefix: "paged" });
    const keys = Array.from({ length: 1_234 }, (_, i) => `many/k${String(i).padStart(4, "0")}.json`);
    for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((key) => store.put(key, "{}")));
    // A neighbour that sorts after the prefix ("/" < "z"), listed with "many" but not with "many/".
    await store.put("manyz/other.json", "{}");
    expect(await store.list("many/")).toEqual(keys);
    expect((await store.list("many")).length).toBe(1_235);
    expect(store.locate("many/k0001.json")).toBe(`s3://${s3.bucket}/paged/many/k0001.json`);
    expect(await store.deletePrefix("many/")).toBe(1_234);
    expect(await store.list("many/")).toEqual([]);
    expect(await store.list("")).toEqual(["manyz/other.json"]);
  }, 120_000);

  it("is refused with a wrong secret: the server checks real SigV4 signatures", async () => {
    const refusedBefore = s3.refused();
    const store = createS3FileStore({ ...config, secretAccessKey: `${s3.secretAccessKey}x` });
    const error = await store.put("wrong/keys.txt", "x").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).kind).toBe("external");
    expect((error as ServiceError).messageId).toBe("file_store_unavailable");
    expect(s3.refused()).toBeGreaterThan(refusedBefore);
    expect(await createS3FileStore(config).read("wrong/keys.txt")).toBeUndefined();
    // An unsigned request is refused too.
    expect((await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`)).status).toBe(403);
  });

  it("refuses to start naming the endpoint, the bucket and the wrong setting, never the secret", async () => {
    await expect(checkS3Bucket(config)).resolves.toBeUndefined();
    const attempt = async (changes: Partial<S3FileStoreConfig>) => {
      const error = await checkS3Bucket({ ...config, ...changes }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(S3UnavailableError);
      const message = (error as Error).message;
      expect(message).not.toContain(s3.secretAccessKey);
      expect(message).not.toContain(changes.secretAccessKey ?? s3.secretAccessKey);
      return message;
    };
    const wrongSecret = await attempt({ secretAccessKey: "not-the-secret" });
    expect(wrongSecret).toContain(s3.endpoint);
    expect(wrongSecret).toContain(`"${s3.bucket}"`);
    expect(wrongSecret).toContain("PARLEY_S3_SECRET_ACCESS_KEY");
    expect(await attempt({ accessKeyId: "AKIAUNKNOWN" })).toContain("PARLEY_S3_ACCESS_KEY_ID");
    const missing = await attempt({ bucket: "no-such-bucket" });
    expect(missing).toContain('"no-such-bucket"');
    expect(missing).toContain("PARLEY_S3_BUCKET");
    const down = await attempt({ endpoint: "http://127.0.0.1:9" });
    expect(down).toContain("http://127.0.0.1:9");
    expect(down).toContain("PARLEY_S3_ENDPOINT");
  });

  it("fails clearly while the server is down and works again when it is back", async () => {
    const store = createS3FileStore(config);
    await store.put("outage/before.txt", "kept");
    await s3.kill();
    try {
      for (const operation of [
        () => store.read("outage/before.txt"),
        () => store.get("outage/before.txt"),
        () => store.put("outage/during.txt", "x"),
        () => store.list("outage/"),
      ]) {
        const began = Date.now();
        const error = await operation().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ServiceError);
        expect((error as ServiceError).messageId).toBe("file_store_unavailable");
        expect(Date.now() - began).toBeLessThan(10_000);
      }
    } finally {
      await s3.start();
    }
    expect(new TextDecoder().decode(await store.read("outage/before.txt"))).toBe("kept");
    await store.put("outage/after.txt", "back");
    expect(await store.list("outage/")).toEqual(["outage/after.txt", "outage/before.txt"]);
  }, 60_000);
});
