import { getQuickJS, type QuickJSWASMModule } from "quickjs-emscripten";

/** Limits of one code block run. */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
}

/** Default limits: 1 s of run time, 32 MB of memory, 1 MB of stack. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024 };
const STACK_BYTES = 1024 * 1024;
/** The result's JSON text is capped, so a block cannot flood the run's record. */
const MAX_RESULT_CHARS = 1_000_000;

/** A code block failed; the message says why (syntax, thrown error, time or memory limit). */
export class SandboxError extends Error {
  override name = "SandboxError";
}

let module: Promise<QuickJSWASMModule> | undefined;

/** Loads the QuickJS WebAssembly module once per process. */
export function quickJs(): Promise<QuickJSWASMModule> {
  module ??= getQuickJS();
  return module;
}

/**
 * Runs user JavaScript in a fresh QuickJS runtime (WebAssembly): no host objects at all (no
 * require, process, fetch, timers or file system), an interrupt handler that stops it at the
 * time limit, a memory limit and a stack limit. The code defines `main(input)`; its result (a
 * promise is awaited) must be JSON. Answers the parsed result.
 */
export async function runInSandbox(code: string, input: unknown, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<unknown> {
  const quick = await quickJs();
  const runtime = quick.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const deadline = Date.now() + limits.timeoutMs;
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline) interrupted = true;
    return interrupted;
  });
  const context = runtime.newContext();
  try {
    const source = `${code}\n;(function(){ if (typeof main !== "function") throw new Error("define a function main(input)"); return main(JSON.parse(${JSON.stringify(JSON.stringify(input ?? {}))})); })()`;
    const evaluated = context.evalCode(source, "code_block.js");
    if (evaluated.error) {
      const failure = context.dump(evaluated.error);
      evaluated.error.dispose();
      throw failureOf(failure, interrupted, limits);
    }
    let handle = evaluated.value;
    const state = context.getPromiseState(handle);
    if (state.type !== "fulfilled" || state.notAPromise !== true) {
      // An async main: run its jobs (within the same limits) and take the settled value.
      runtime.executePendingJobs();
      const settled = context.getPromiseState(handle);
      handle.dispose();
      if (settled.type === "pending") throw new SandboxError(interrupted ? timeoutText(limits) : "main() returned a promise that never settled");
      if (settled.type === "rejected") {
        const failure = context.dump(settled.error);
        settled.error.dispose();
        throw failureOf(failure, interrupted, limits);
      }
      handle = settled.value;
    }
    const jsonHandle = context.evalCode("(value) => JSON.stringify(value === undefined ? null : value)");
    if (jsonHandle.error) {
      jsonHandle.error.dispose();
      handle.dispose();
      throw new SandboxError("could not read the result");
    }
    const called = context.callFunction(jsonHandle.value, context.undefined, handle);
    jsonHandle.value.dispose();
    handle.dispose();
    if (called.error) {
      const failure = context.dump(called.error);
      called.error.dispose();
      throw failureOf(failure, interrupted, limits);
    }
    const text = context.getString(called.value);
    called.value.dispose();
    if (text.length > MAX_RESULT_CHARS) throw new SandboxError(`the result is larger than ${MAX_RESULT_CHARS} characters`);
    return JSON.parse(text) as unknown;
  } finally {
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped at its memory limit may refuse to free cleanly; the module stays usable.
    }
  }
}

function timeoutText(limits: SandboxLimits): string {
  return `the code ran longer than ${limits.timeoutMs} ms and was stopped`;
}

function failureOf(failure: unknown, interrupted: boolean, limits: SandboxLimits): SandboxError {
  if (interrupted) return new SandboxError(timeoutText(limits));
  const text =
    failure && typeof failure === "object"
      ? `${(failure as { name?: string }).name ?? "Error"}: ${(failure as { message?: string }).message ?? JSON.stringify(failure)}`
      : String(failure);
  if (/out of memory|InternalError: out of memory/i.test(text)) return new SandboxError(`the code used more than ${Math.round(limits.memoryBytes / 1024 / 1024)} MB of memory and was stopped`);
  if (/stack overflow/i.test(text)) return new SandboxError("the code recursed too deeply (stack overflow)");
  return new SandboxError(text.slice(0, 2000));
}
