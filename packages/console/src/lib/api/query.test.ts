import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { createQueryClient, fetchSpace, forgetSpace, queryClient, spaceKey, spaceQueryOptions } from "./query";
import { sessionStore } from "./session";
import type { User } from "./types";
import type { ApiResult } from "./request";

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("space query keys", () => {
  it("always start with the space id, whatever comes below it", () => {
    expect(spaceKey("space-a", "knowledge-bases")).toEqual(["space", "space-a", "knowledge-bases"]);
    expect(spaceKey("space-b", "workflow", "wf-1", { pageNo: 2 })).toEqual(["space", "space-b", "workflow", "wf-1", { pageNo: 2 }]);
    expect(spaceKey(undefined, "apps")).toEqual(["space", "none", "apps"]);
    expect(spaceKey("space-a", "apps")).not.toEqual(spaceKey("space-b", "apps"));
  });

  it("a screen following a space switch never sees the other space's list, not even while loading", async () => {
    const client = createQueryClient();
    const answers = { "space-a": deferred<ApiResult<string[]>>(), "space-b": deferred<ApiResult<string[]>>() };
    const options = (spaceId: "space-a" | "space-b") => spaceQueryOptions(spaceId, { key: ["apps"], fetch: () => answers[spaceId].promise });

    const observer = new QueryObserver(client, options("space-a"));
    const seen: (string[] | undefined)[] = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data));
    answers["space-a"].resolve({ ok: true, data: ["Bike desk"] });
    await expect.poll(() => observer.getCurrentResult().data).toEqual(["Bike desk"]);

    // The switch: the same screen, now asking in space B whose answer has not come yet.
    seen.length = 0;
    observer.setOptions(options("space-b"));
    expect(observer.getCurrentResult().data).toBeUndefined();
    expect(observer.getCurrentResult().isPending).toBe(true);
    answers["space-b"].resolve({ ok: true, data: ["Team desk"] });
    await expect.poll(() => observer.getCurrentResult().data).toEqual(["Team desk"]);

    expect(seen.flat()).not.toContain("Bike desk");
    unsubscribe();
    client.clear();
  });

  it("a failed call puts the query in its error state with the failure", async () => {
    const client = createQueryClient();
    const failure = { kind: "http" as const, status: 404, message: "Not found" };
    await expect(
      client.fetchQuery(spaceQueryOptions("space-a", { key: ["app", "missing"], fetch: async () => ({ ok: false as const, error: failure }) })),
    ).rejects.toMatchObject({ failure });
    client.clear();
  });

  it("a load started by an action is cached under the current space; a failure answers undefined", async () => {
    sessionStore.setUser({ spaceId: "space-a" } as User);
    const messages = await fetchSpace({ key: ["chat", "messages", "c-1"], fetch: async () => ({ ok: true as const, data: ["Hello"] }) });
    expect(messages).toEqual(["Hello"]);
    expect(queryClient.getQueryData(spaceKey("space-a", "chat", "messages", "c-1"))).toEqual(["Hello"]);
    expect(queryClient.getQueryData(spaceKey("space-b", "chat", "messages", "c-1"))).toBeUndefined();
    const failure = { kind: "http" as const, status: 404, message: "Not found" };
    expect(await fetchSpace({ key: ["chat", "messages", "gone"], fetch: async () => ({ ok: false as const, error: failure }) })).toBeUndefined();
    sessionStore.clear();
    queryClient.clear();
  });

  it("switching away forgets everything cached for the old space and keeps the others", async () => {
    queryClient.setQueryData(spaceKey("space-a", "apps"), ["Bike desk"]);
    queryClient.setQueryData(spaceKey("space-a", "knowledge-bases", "kb-1"), { name: "Handbook" });
    queryClient.setQueryData(spaceKey("space-b", "apps"), ["Team desk"]);
    await forgetSpace("space-a");
    expect(queryClient.getQueryData(spaceKey("space-a", "apps"))).toBeUndefined();
    expect(queryClient.getQueryData(spaceKey("space-a", "knowledge-bases", "kb-1"))).toBeUndefined();
    expect(queryClient.getQueryData(spaceKey("space-b", "apps"))).toEqual(["Team desk"]);
    queryClient.clear();
  });
});
