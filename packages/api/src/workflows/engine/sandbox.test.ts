import { describe, expect, it } from "vitest";
import { runInSandbox } from "./sandbox";

describe("code sandbox (QuickJS)", () => {
  it("runs main(input) and answers JSON", async () => {
    expect(await runInSandbox("function main(input) { return { length: input.text.length, upper: input.text.toUpperCase() } }", { text: "abc" })).toEqual({
      length: 3,
      upper: "ABC",
    });
  });

  it("awaits an async main", async () => {
    expect(await runInSandbox("async function main(input) { const value = await Promise.resolve(input.n * 2); return value }", { n: 21 })).toBe(42);
  });

  it("stops code that loops forever at the time limit", async () => {
    const started = Date.now();
    await expect(runInSandbox("function main() { while (true) {} }", {}, { timeoutMs: 200, memoryBytes: 16 * 1024 * 1024 })).rejects.toThrow(
      /longer than 200 ms/,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops code that allocates without bound at the memory limit", async () => {
    const started = Date.now();
    await expect(
      runInSandbox(
        "function main() { let size = 1024; const keep = []; while (true) { keep.push(new Array(size).fill(size)); size *= 2; } }",
        {},
        { timeoutMs: 1500, memoryBytes: 8 * 1024 * 1024 },
      ),
    ).rejects.toThrow(/more than 8 MB of memory/);
    // Allocation that keeps the collector busy near the limit is ended by the host at the time limit.
    await expect(
      runInSandbox(
        "function main() { const list = []; while (true) list.push(new Array(100000).fill('x')); }",
        {},
        { timeoutMs: 1000, memoryBytes: 16 * 1024 * 1024 },
      ),
    ).rejects.toThrow(/memory|longer than 1000 ms/);
    // Concatenated strings escape QuickJS's own count: the WebAssembly memory watch stops them.
    // The watch runs in the interrupt handler, every few thousand operations, so the stop takes
    // 3–8 s on a loaded 2-core machine: the time limit is set well past that, so that only the
    // memory watch can end this run.
    await expect(
      runInSandbox(
        "function main() { const keep = []; for (let i = 0; i < 3000; i++) keep.push('x'.repeat(1 << 20) + i); return keep.length }",
        {},
        { timeoutMs: 20_000, memoryBytes: 8 * 1024 * 1024 },
      ),
    ).rejects.toThrow(/more than 8 MB of memory/);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await runInSandbox("function main() { return 'fine' }", {})).toBe("fine");
  }, 60_000);

  it("has no host access", async () => {
    expect(
      await runInSandbox(
        "function main() { return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.Deno, typeof Uint8Array] }",
        {},
      ),
    ).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]);
  });

  it("cannot reach the host through constructors or globals", async () => {
    expect(
      await runInSandbox(
        "function main() { const F = (function () {}).constructor; const g = F('return this')(); return [typeof g.process, typeof g.require, Object.keys(g).filter((key) => key !== 'main').length] }",
        {},
      ),
    ).toEqual(["undefined", "undefined", 0]);
  });

  it("reports thrown errors and syntax errors", async () => {
    await expect(runInSandbox("function main() { throw new TypeError('bad input') }", {})).rejects.toThrow(/TypeError: bad input/);
    await expect(runInSandbox("function main( {", {})).rejects.toThrow(/SyntaxError/);
    await expect(runInSandbox("const x = 1", {})).rejects.toThrow(/define a function main/);
  });

  it("stays usable after a run hit a limit", async () => {
    await expect(runInSandbox("function main() { while (true) {} }", {}, { timeoutMs: 50, memoryBytes: 16 * 1024 * 1024 })).rejects.toThrow();
    expect(await runInSandbox("function main() { return 1 + 1 }", {})).toBe(2);
  });
});
