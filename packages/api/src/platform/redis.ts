import { Redis, type RedisOptions } from "ioredis";

/** Thrown when the configured Redis cannot be reached at start-up; the message names it and the setting. */
export class RedisUnavailableError extends Error {
  override name = "RedisUnavailableError";
}

/** The URL with its password hidden, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

/** What a connection is for: a queue's blocking worker waits forever; everything else fails fast. */
export type RedisUse = "queue-worker" | "commands";

/**
 * Opens an ioredis connection to `url` and waits until it answers PING (at most `timeoutMs`), so a
 * process configured with Redis refuses to start without it, with a message naming the server and
 * PARLEY_REDIS_URL. Once started, the client reconnects on its own when Redis goes away:
 *
 * - `commands` connections do not queue commands while disconnected (`enableOfflineQueue: false`)
 *   and give up a command after one retry, so a request that needs Redis fails clearly at once
 *   instead of hanging;
 * - `queue-worker` connections retry forever (`maxRetriesPerRequest: null`), which BullMQ requires
 *   of the connections its workers block on.
 */
export async function openRedis(url: string, use: RedisUse = "commands", options: { timeoutMs?: number; name?: string } = {}): Promise<Redis> {
  const base: RedisOptions = {
    lazyConnect: true,
    connectionName: options.name ?? "parley",
    // Reconnects every 0.2 s growing to 2 s; never gives up (Redis may come back).
    retryStrategy: (times) => Math.min(200 * times, 2_000),
  };
  const client =
    use === "queue-worker"
      ? new Redis(url, { ...base, maxRetriesPerRequest: null, enableReadyCheck: true })
      : new Redis(url, { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  // ioredis reports connection errors as events; without a listener Node would treat them as
  // unhandled. The first one at start-up is the reason given (a refused password, say).
  let firstError: Error | undefined;
  client.on("error", (error: Error) => {
    firstError ??= error;
  });
  const timeoutMs = options.timeoutMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    const reason = (firstError ?? (error instanceof Error ? error : new Error(String(error)))).message;
    throw new RedisUnavailableError(`Redis at ${redactRedisUrl(url)} (PARLEY_REDIS_URL) is not reachable: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}
