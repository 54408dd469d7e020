import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSignInThrottleKey } from "../identity/service/login-guard";
import { ThrottleUnavailableError } from "../kernel/throttle";
import { openRedis } from "../platform/redis";
import { type RedisServer, skipWithoutRedis, startRedis } from "../testing/redis-server";
import { createRedisThrottle, THROTTLE_KEY_PREFIX } from "./throttle";

// Two throttles on two connections stand for two API processes sharing one Redis.
describe.skipIf(skipWithoutRedis())("the throttle over Redis", () => {
  let redis: RedisServer;
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    a = await openRedis(redis.url);
    b = await openRedis(redis.url);
  });
  afterAll(async () => {
    a?.disconnect();
    b?.disconnect();
    await redis?.stop();
  });
  const pair = () => [createRedisThrottle(a, { failsClosed: isSignInThrottleKey }), createRedisThrottle(b, { failsClosed: isSignInThrottleKey })] as const;

  it("shares counts between processes: hit, peek, count, undo and reset", async () => {
    const [one, two] = pair();
    expect(await one.hit("widget-sessions-ip:1", 3, 60)).toBe(0);
    expect(await two.hit("widget-sessions-ip:1", 3, 60)).toBe(0);
    expect(await one.count("widget-sessions-ip:1")).toBe(2);
    expect(await two.hit("widget-sessions-ip:1", 3, 60)).toBe(0);
    // The fourth, through either process, waits out the window and is not counted.
    const wait = await one.hit("widget-sessions-ip:1", 3, 60);
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await two.count("widget-sessions-ip:1")).toBe(3);
    expect(await two.peek("widget-sessions-ip:1", 3)).toBeGreaterThan(55);
    await one.undo("widget-sessions-ip:1");
    expect(await two.peek("widget-sessions-ip:1", 3)).toBe(0);
    expect(await two.hit("widget-sessions-ip:1", 3, 60)).toBe(0);
    await two.reset("widget-sessions-ip:1");
    expect(await one.count("widget-sessions-ip:1")).toBe(0);
    expect(await a.exists(`${THROTTLE_KEY_PREFIX}:widget-sessions-ip:1`)).toBe(0);
    // The window is Redis's TTL on the key.
    await one.hit("widget-sessions-ip:2", 3, 60);
    expect(await a.ttl(`${THROTTLE_KEY_PREFIX}:widget-sessions-ip:2`)).toBeGreaterThan(55);
  });

  it("admits exactly N of many concurrent multi-rule attempts spread over two processes, and gives back what a refusal took", async () => {
    const [one, two] = pair();
    const rules = [
      { key: "rate:r1:u:1", limit: 7, windowSeconds: 60 },
      { key: "rate:r2:u:1", limit: 100, windowSeconds: 3600 },
    ];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).hitAll(rules)));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(7);
    expect(answers.filter((answer) => answer?.index === 0)).toHaveLength(33);
    // The refused attempts took nothing from the hour's rule.
    expect(await one.count("rate:r1:u:1")).toBe(7);
    expect(await two.count("rate:r2:u:1")).toBe(7);
  });

  it("while Redis is down: sign-in keys refuse clearly, other keys count in memory; all shared again once it is back", async () => {
    const [one, two] = pair();
    await one.hit("store-guest-sessions:9", 2, 60);
    await redis.kill();
    try {
      const began = Date.now();
      await expect(one.hit("login-ip:9", 5, 60)).rejects.toBeInstanceOf(ThrottleUnavailableError);
      await expect(two.peek("code-resend:email:x:login", 1)).rejects.toBeInstanceOf(ThrottleUnavailableError);
      // The insurance limiter: each process counts on its own, with the same limit.
      expect(await one.hit("store-guest-sessions:9", 2, 60)).toBe(0);
      expect(await one.hit("store-guest-sessions:9", 2, 60)).toBe(0);
      expect(await one.hit("store-guest-sessions:9", 2, 60)).toBeGreaterThan(0);
      expect(await two.hit("store-guest-sessions:9", 2, 60)).toBe(0);
      expect(Date.now() - began).toBeLessThan(3_000);
    } finally {
      await redis.start();
    }
    // Back: the count kept in Redis (one attempt, from before) is shared again.
    await expect.poll(() => one.count("store-guest-sessions:9"), { timeout: 10_000 }).toBe(1);
    expect(await two.hit("store-guest-sessions:9", 2, 60)).toBe(0);
    expect(await one.hit("store-guest-sessions:9", 2, 60)).toBeGreaterThan(0);
    await expect.poll(() => one.hit("login-ip:9", 5, 60).catch(() => -1), { timeout: 10_000 }).toBe(0);
  });
});
