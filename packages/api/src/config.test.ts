import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("scale-out settings", () => {
  it("runs every role, with no Redis and no object storage, when nothing is set", () => {
    const config = loadConfig({});
    expect(config.roles).toEqual({ api: true, worker: true, scheduler: true });
    expect(config.redis).toBeUndefined();
    expect(config.s3).toBeUndefined();
  });

  it("takes a set of roles", () => {
    expect(loadConfig({ PARLEY_ROLE: "api" }).roles).toEqual({ api: true, worker: false, scheduler: false });
    expect(loadConfig({ PARLEY_ROLE: "worker, Scheduler" }).roles).toEqual({ api: false, worker: true, scheduler: true });
    expect(loadConfig({ PARLEY_ROLE: "api,all" }).roles).toEqual({ api: true, worker: true, scheduler: true });
  });

  it("refuses a role it does not know, naming the setting", () => {
    expect(() => loadConfig({ PARLEY_ROLE: "api,web" })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_ROLE: "api,web" })).toThrow(/PARLEY_ROLE/);
    expect(() => loadConfig({ PARLEY_ROLE: " , " })).toThrow(/PARLEY_ROLE/);
  });

  it("takes a Redis URL and refuses anything else", () => {
    expect(loadConfig({ PARLEY_REDIS_URL: "redis://:pw@127.0.0.1:6379/2" }).redis).toEqual({ url: "redis://:pw@127.0.0.1:6379/2" });
    expect(() => loadConfig({ PARLEY_REDIS_URL: "http://127.0.0.1:6379" })).toThrow(/PARLEY_REDIS_URL/);
  });

  it("takes object storage only with its bucket and keys", () => {
    const config = loadConfig({
      PARLEY_S3_ENDPOINT: "http://127.0.0.1:9000/",
      PARLEY_S3_BUCKET: "parley",
      PARLEY_S3_ACCESS_KEY_ID: "key",
      PARLEY_S3_SECRET_ACCESS_KEY: "secret",
      PARLEY_S3_FORCE_PATH_STYLE: "true",
      PARLEY_S3_PREFIX: "/prod/",
    });
    expect(config.s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      bucket: "parley",
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: true,
      prefix: "prod",
    });
    expect(() => loadConfig({ PARLEY_S3_BUCKET: "parley" })).toThrow(/PARLEY_S3_ACCESS_KEY_ID, PARLEY_S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ PARLEY_S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/PARLEY_S3_BUCKET/);
  });
});
