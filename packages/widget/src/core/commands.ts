/** The `window.Parley(command, ...args)` queue: calls made before a handler exists wait. */

/** One queued call. */
export type Command = [name: string, ...args: unknown[]];

/** A queue that buffers commands until {@link CommandQueue.drain} gives them a handler. */
export interface CommandQueue {
  push(name: string, args: unknown[]): void;
  /** Runs every waiting command through `handler`, in order, then sends later ones straight to it. */
  drain(handler: (name: string, args: unknown[]) => void): void;
}

/** Creates a command queue; a throwing handler is reported with console.warn, never rethrown. */
export function createCommandQueue(): CommandQueue {
  const waiting: Command[] = [];
  let target: ((name: string, args: unknown[]) => void) | undefined;
  const run = (name: string, args: unknown[]) => {
    try {
      target?.(name, args);
    } catch (error) {
      console.warn("[parley]", error);
    }
  };
  return {
    push(name, args) {
      if (target) run(name, args);
      else waiting.push([name, ...args]);
    },
    drain(handler) {
      target = handler;
      for (const [name, ...args] of waiting.splice(0)) run(name, args);
    },
  };
}
