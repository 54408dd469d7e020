import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, skipWithoutRedis, startRedis } from "../testing/redis-server";
import { openRedis, RedisUnavailableError, redactRedisUrl } from "./redis";

describe.skipIf(skipWithoutRedis())("opening Redis", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("answers once the server answers PING, and fails fast while it is down, then recovers", async () => {
    const client = await openRedis(redis.url);
    try {
      expect(await client.set("parley:probe", "1")).toBe("OK");
      await redis.kill();
      // Commands fail at once rather than queueing until Redis returns.
      const began = Date.now();
      await expect(client.get("parley:probe")).rejects.toThrow();
      expect(Date.now() - began).toBeLessThan(3_000);
      await redis.start();
      // The append-only file brought the key back, and the client reconnected on its own.
      await expect.poll(() => client.get("parley:probe").catch(() => null), { timeout: 10_000 }).toBe("1");
    } finally {
      client.disconnect();
    }
  });

  it("refuses to start with a message naming the server and the setting, without the password", async () => {
    const wrong = redis.url.replace(`:${redis.port}`, ":1");
    const error = await openRedis(wrong, "commands", { timeoutMs: 2_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as Error).message).toMatch(/^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/? \(PARLEY_REDIS_URL\) is not reachable/);
    expect((error as Error).message).not.toContain(redis.password);
    const badPassword = await openRedis(redis.url.replace(redis.password, "nope"), "commands", { timeoutMs: 2_000 }).catch((caught: unknown) => caught);
    expect(badPassword).toBeInstanceOf(RedisUnavailableError);
    expect((badPassword as Error).message).toMatch(/WRONGPASS|invalid username-password/i);
  });

  it("hides the password of a URL", () => {
    expect(redactRedisUrl("redis://user:secret@host:6379/1")).toBe("redis://user:***@host:6379/1");
    expect(redactRedisUrl("redis://host:6379")).toBe("redis://host:6379");
  });
});
