import type { Redis } from "ioredis";
import type { Config } from "../config";
import { createMemoryThrottle, createRedisThrottle } from "../http/throttle";
import { isSignInThrottleKey } from "../identity/service/login-guard";
import type { Throttle } from "../kernel/throttle";
import type { Logger } from "../logger";
import type { RealtimeHub } from "../realtime/hub";
import { createRedisRealtimeHub } from "../realtime/redis-hub";
import { openRedis } from "./redis";

/** What the processes of an instance share: real-time events and limit counters. */
export interface SharedState {
  realtime: RealtimeHub;
  throttle: Throttle;
  /** Stops listening and closes the Redis connections (nothing to do in memory). */
  close(): Promise<void>;
}

/**
 * The realtime hub and throttle of this process (docs/decisions/0031-realtime-and-limits.md):
 * without `config.redis`, `localHub` and counters in memory, as in one process; with it, both
 * over Redis on two connections (one publishes and counts, one listens), so every process hears
 * every event and counts every attempt. Refuses to start while that Redis is unreachable.
 */
export async function openSharedState(config: Pick<Config, "redis">, logger: Logger, localHub: RealtimeHub): Promise<SharedState> {
  if (!config.redis) return { realtime: localHub, throttle: createMemoryThrottle(), close: async () => {} };
  const connections: Redis[] = [];
  try {
    const commands = await openRedis(config.redis.url, "commands", { name: "parley-shared" });
    connections.push(commands);
    const subscriber = await openRedis(config.redis.url, "commands", { name: "parley-realtime-sub" });
    connections.push(subscriber);
    const realtime = await createRedisRealtimeHub(commands, subscriber, logger);
    return {
      realtime,
      throttle: createRedisThrottle(commands, { failsClosed: isSignInThrottleKey }),
      async close() {
        await realtime.close();
        for (const connection of connections) connection.disconnect();
      },
    };
  } catch (error) {
    for (const connection of connections) connection.disconnect();
    throw error;
  }
}
