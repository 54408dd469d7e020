import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { expect, it } from "vitest";
import { type McpSession, McpSessionStore } from "./sessions";

const session = (id: string, lastUsedAt: number): McpSession => ({
  id,
  transport: new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id }),
  server: new McpServer({ name: "test", version: "1" }),
  target: "app:a",
  keyDigest: "k",
  lastUsedAt,
});

it("forgets a session idle past the expiry and, at the cap, closes the longest idle one for a new one", () => {
  let now = 0;
  const store = new McpSessionStore(() => now, 1_000, 2);
  store.add(session("a", now));
  now = 500;
  store.add(session("b", now));
  now = 900;
  expect(store.get("a")?.id).toBe("a"); // used again: a is now the more recent
  store.add(session("c", now));
  expect([store.get("a")?.id, store.get("b")?.id, store.get("c")?.id]).toEqual(["a", undefined, "c"]);
  now = 2_000;
  expect(store.get("a")).toBeUndefined();
  expect(store.size).toBe(0);
});
