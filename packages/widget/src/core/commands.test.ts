import { describe, expect, it, vi } from "vitest";
import { createCommandQueue } from "./commands";

describe("command queue", () => {
  it("keeps calls made before a handler exists and replays them in order", () => {
    const queue = createCommandQueue();
    queue.push("identify", [{ userId: "u1", hash: "h" }]);
    queue.push("open", []);
    const seen: unknown[] = [];
    queue.drain((name, args) => seen.push([name, ...args]));
    expect(seen).toEqual([["identify", { userId: "u1", hash: "h" }], ["open"]]);
    queue.push("close", []);
    expect(seen).toEqual([["identify", { userId: "u1", hash: "h" }], ["open"], ["close"]]);
  });

  it("never throws into the host page: a failing handler is reported with console.warn", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const queue = createCommandQueue();
    queue.push("open", []);
    expect(() =>
      queue.drain(() => {
        throw new Error("boom");
      }),
    ).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
