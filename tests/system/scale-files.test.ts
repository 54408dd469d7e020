import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3Server, startS3Server } from "../../packages/api/src/testing/s3-server";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_scale_files_owner_key_0123456789";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-scale-files-"));
let s3: S3Server;
let a: ParleyProcess | undefined;
let b: ParleyProcess | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  s3 = await startS3Server();
  env = { PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false", ...s3.env("parley") };
  // Two API processes on one data store (the SQLite file in the shared folder) and one bucket.
  a = await startParley(env, { dataDir });
  b = await startParley(env, { dataDir });
}, 90_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await s3?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const png = (() => {
  const bytes = new Uint8Array(200_000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  for (let i = 16; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
  return bytes;
})();

describe("stored files across processes on S3", () => {
  it("a file uploaded through process A downloads through process B", async () => {
    const base = await apiCall<{ id: string }>(a!.url, ownerKey, "POST", "/api/v1/knowledge-bases", { name: "Shared manuals" });
    const text = "Parcels are returned within thirty days.\n\nRefunds take five working days.";
    const form = new FormData();
    form.append("file", new File([text], "returns.txt"));
    const file = await apiCall<{ id: string }>(a!.url, ownerKey, "POST", `/api/v1/knowledge-bases/${base.id}/files`, form);
    await apiCall(a!.url, ownerKey, "POST", `/api/v1/knowledge-files/${file.id}/confirm`);
    // Indexing (by either process's worker) reads the original from the bucket.
    await expect
      .poll(
        async () => (await apiCall<Array<{ id: string; status: string }>>(b!.url, ownerKey, "GET", `/api/v1/knowledge-bases/${base.id}/files`))[0]?.status,
        {
          timeout: 30_000,
        },
      )
      .toBe("effective");
    const exported = await fetch(`${b!.url}/api/v1/knowledge-files/${file.id}/export`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe(text);

    const mediaForm = new FormData();
    mediaForm.append("file", new File([png], "map.png"));
    const media = await apiCall<{ id: string }>(a!.url, ownerKey, "POST", `/api/v1/knowledge-bases/${base.id}/media`, mediaForm);
    const content = await fetch(`${b!.url}/api/v1/knowledge-media/${media.id}/content`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(content.status).toBe(200);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(png);

    // The objects are in the bucket, not in the shared folder.
    expect(fs.existsSync(path.join(dataDir, "knowledge"))).toBe(false);
  });

  it("refuses to start with a wrong secret, naming the endpoint, the bucket and the setting, never the secret", async () => {
    const wrong = "definitely-not-the-secret-value";
    const error = await startParley({ ...env, PARLEY_S3_SECRET_ACCESS_KEY: wrong }, { dataDir }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain("exited with 2");
    expect(message).toContain(s3.endpoint);
    expect(message).toContain(`"${s3.bucket}"`);
    expect(message).toContain("PARLEY_S3_SECRET_ACCESS_KEY");
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(s3.secretAccessKey);
  });
});
