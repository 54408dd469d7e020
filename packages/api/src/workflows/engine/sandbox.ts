import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Limits of one code block run. */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
}

/** Default limits: 1 s of run time, 32 MB of memory. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024 };
/** Past the time limit, the host gives QuickJS this long to stop by itself before it ends the thread. */
const KILL_GRACE_MS = 500;
/** How much the process may grow while one code block runs before its thread is ended. */
const HOST_MEMORY_ALLOWANCE = 256 * 1024 * 1024;
const MEMORY_WATCH_MS = 20;
/** Worker threads kept warm (each holds one QuickJS WebAssembly module). */
const POOL_SIZE = 2;

/** A code block failed; the message says why (syntax, thrown error, time or memory limit). */
export class SandboxError extends Error {
  override name = "SandboxError";
}

/**
 * The worker's program (CommonJS, evaluated in a worker thread). Each run gets a fresh QuickJS
 * runtime with a memory limit, a stack limit and an interrupt handler at the deadline; nothing
 * of the host is put into it. The result crosses back as JSON text.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { getQuickJS } = require(workerData.modulePath);
const ready = getQuickJS();
const MAX_RESULT_CHARS = 1000000;
function describe(context, handle) {
  const value = context.dump(handle);
  handle.dispose();
  if (value && typeof value === "object") return (value.name || "Error") + ": " + (value.message || JSON.stringify(value));
  return String(value);
}
parentPort.on("message", async (task) => {
  const quick = await ready;
  const runtime = quick.newRuntime();
  runtime.setMemoryLimit(task.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const deadline = Date.now() + task.timeoutMs;
  // QuickJS does not count every allocation against its limit (concatenated strings escape it):
  // the WebAssembly memory itself is watched too, and the run stopped when it grows past the limit.
  const wasmBytes = () => (quick.module && quick.module.HEAPU8 ? quick.module.HEAPU8.byteLength : 0);
  const ceiling = wasmBytes() + task.memoryBytes * 2 + 32 * 1024 * 1024;
  let interrupted = false;
  let overMemory = false;
  runtime.setInterruptHandler(() => {
    if (wasmBytes() > ceiling) overMemory = true;
    interrupted = interrupted || overMemory || Date.now() > deadline;
    return interrupted;
  });
  // Typed arrays are left out: their buffers escape the runtime's memory limit.
  const context = runtime.newContext({ intrinsics: { BaseObjects: true, Date: true, Eval: true, StringNormalize: true, RegExp: true, JSON: true, Proxy: true, MapSet: true, Promise: true } });
  // A module whose memory grew large is not reused (WebAssembly memory never shrinks).
  const answer = (message) => parentPort.postMessage({ id: task.id, ...message, ...(overMemory ? { error: "out of memory", interrupted: false } : {}), recycle: wasmBytes() > 256 * 1024 * 1024 });
  try {
    const source = task.code + "\\n;(function(){ if (typeof main !== 'function') throw new Error('define a function main(input)'); return main(JSON.parse(" + JSON.stringify(task.input) + ")); })()";
    const evaluated = context.evalCode(source, "code_block.js");
    if (evaluated.error) return answer({ error: describe(context, evaluated.error), interrupted });
    let handle = evaluated.value;
    const state = context.getPromiseState(handle);
    if (!(state.type === "fulfilled" && state.notAPromise)) {
      runtime.executePendingJobs();
      const settled = context.getPromiseState(handle);
      handle.dispose();
      if (settled.type === "pending") return answer({ error: "main() returned a promise that never settled", interrupted });
      if (settled.type === "rejected") return answer({ error: describe(context, settled.error), interrupted });
      handle = settled.value;
    }
    const stringify = context.evalCode("(value) => JSON.stringify(value === undefined ? null : value)");
    const called = context.callFunction(stringify.value, context.undefined, handle);
    stringify.value.dispose();
    handle.dispose();
    if (called.error) return answer({ error: describe(context, called.error), interrupted });
    const text = context.getString(called.value);
    called.value.dispose();
    if (text.length > MAX_RESULT_CHARS) return answer({ error: "the result is larger than " + MAX_RESULT_CHARS + " characters" });
    answer({ result: text });
  } catch (error) {
    answer({ error: String(error && error.message ? error.message : error), interrupted });
  } finally {
    try { context.dispose(); runtime.dispose(); } catch {}
  }
});
`;

interface PoolWorker {
  worker: Worker;
  busy: boolean;
}

let modulePath: string | undefined;
const pool: PoolWorker[] = [];
const waiting: Array<(entry: PoolWorker) => void> = [];
let nextTask = 0;

function spawn(): PoolWorker {
  modulePath ??= createRequire(import.meta.url).resolve("quickjs-emscripten");
  // The thread's own heap is bounded too: QuickJS lives in WebAssembly memory inside it.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { modulePath },
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
  });
  worker.unref();
  const entry: PoolWorker = { worker, busy: false };
  worker.on("error", () => replace(entry));
  return entry;
}

function replace(entry: PoolWorker) {
  const index = pool.indexOf(entry);
  if (index >= 0) pool.splice(index, 1);
  void entry.worker.terminate().catch(() => undefined);
}

async function acquire(): Promise<PoolWorker> {
  const idle = pool.find((entry) => !entry.busy);
  if (idle) {
    idle.busy = true;
    return idle;
  }
  if (pool.length < POOL_SIZE) {
    const entry = spawn();
    entry.busy = true;
    pool.push(entry);
    return entry;
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release(entry: PoolWorker) {
  const next = waiting.shift();
  if (next) {
    if (pool.includes(entry)) next(entry);
    else {
      const fresh = spawn();
      fresh.busy = true;
      pool.push(fresh);
      next(fresh);
    }
    return;
  }
  entry.busy = false;
}

function memoryError(limits: SandboxLimits): SandboxError {
  return new SandboxError(`the code used more than ${Math.round(limits.memoryBytes / 1024 / 1024)} MB of memory and was stopped`);
}

function failureOf(error: string, interrupted: boolean, limits: SandboxLimits): SandboxError {
  if (interrupted) return new SandboxError(`the code ran longer than ${limits.timeoutMs} ms and was stopped`);
  if (/out of memory/i.test(error)) return memoryError(limits);
  if (/stack overflow/i.test(error)) return new SandboxError("the code recursed too deeply (stack overflow)");
  return new SandboxError(error.slice(0, 2000));
}

/**
 * Runs user JavaScript in QuickJS (WebAssembly) on a worker thread: a fresh runtime per run with
 * no host objects (no require, process, fetch, timers or file system), QuickJS's own memory,
 * stack and time limits, and the host's hard stop: past the time limit the thread is ended, so
 * code that hides in native work (garbage collection near the memory limit) cannot outlast it.
 * The code defines `main(input)`; its result (a promise is awaited) must be JSON.
 */
export async function runInSandbox(code: string, input: unknown, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<unknown> {
  const entry = await acquire();
  const id = ++nextTask;
  return new Promise<unknown>((resolve, reject) => {
    let done = false;
    const finish = (outcome: () => void, healthy: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(killer);
      stopWatching();
      entry.worker.off("message", onMessage);
      entry.worker.off("exit", onExit);
      if (!healthy) replace(entry);
      release(entry);
      outcome();
    };
    const onMessage = (message: { id: number; result?: string; error?: string; interrupted?: boolean; recycle?: boolean }) => {
      if (message.id !== id) return;
      const healthy = message.recycle !== true;
      if (message.error !== undefined) finish(() => reject(failureOf(message.error!, message.interrupted === true, limits)), healthy);
      else finish(() => resolve(JSON.parse(message.result ?? "null") as unknown), healthy);
    };
    const onExit = () => finish(() => reject(new SandboxError(`the code used more memory than the sandbox allows and was stopped`)), false);
    const killer = setTimeout(
      () => finish(() => reject(new SandboxError(`the code ran longer than ${limits.timeoutMs} ms and was stopped`)), false),
      limits.timeoutMs + KILL_GRACE_MS,
    );
    // The host's backstop: QuickJS checks its limits only every few thousand operations, so a
    // loop of large allocations can outrun them; the process's memory is watched while the code runs.
    const startRss = process.memoryUsage.rss();
    const allowance = Math.max(limits.memoryBytes * 8, HOST_MEMORY_ALLOWANCE);
    const watcher = setInterval(() => {
      if (process.memoryUsage.rss() - startRss > allowance) finish(() => reject(memoryError(limits)), false);
    }, MEMORY_WATCH_MS);
    const stopWatching = () => clearInterval(watcher);
    entry.worker.on("message", onMessage);
    entry.worker.on("exit", onExit);
    entry.worker.postMessage({ id, code, input: JSON.stringify(input ?? {}), timeoutMs: limits.timeoutMs, memoryBytes: limits.memoryBytes });
  });
}
