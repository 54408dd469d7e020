/** How a batcher gathers texts and how many requests it keeps open. */
export interface BatcherOptions {
  /** Texts per request, at most. */
  batchSize: number;
  /** Requests in flight at once, at most. */
  concurrency: number;
  /** How long a partial batch waits for more texts before it is sent anyway (milliseconds). */
  waitMs: number;
  /** Sends one batch; answers one vector per text, in order. */
  send(texts: string[]): Promise<Float32Array[]>;
}

/** Gathers texts of concurrent callers into shared batches. */
export interface EmbeddingBatcher {
  /** The vectors of exactly these texts, in order; rejects with the error of any batch that carried one of them. */
  submit(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

interface Caller {
  texts: readonly string[];
  /** Index of the first text not yet handed to a batch. */
  next: number;
  vectors: Float32Array[];
  /** Texts whose vectors have not arrived yet. */
  missing: number;
  settled: boolean;
  resolve(vectors: Float32Array[]): void;
  reject(error: unknown): void;
}

interface Slice {
  caller: Caller;
  start: number;
  count: number;
}

/**
 * A batcher shared by everyone indexing with one embedder: texts of concurrent files fill a
 * batch up to `batchSize`; a partial batch leaves after `waitMs`; at most `concurrency`
 * batches are in flight, and texts wait in arrival order behind them. A batch is never split:
 * its failure fails every caller with texts in it (their files retry as a whole).
 */
export function createEmbeddingBatcher(options: BatcherOptions): EmbeddingBatcher {
  const batchSize = Math.max(1, Math.floor(options.batchSize));
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const waiting: Caller[] = [];
  let queued = 0;
  let inFlight = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function settle(caller: Caller, error: unknown) {
    if (caller.settled) return;
    caller.settled = true;
    queued -= caller.texts.length - caller.next;
    caller.next = caller.texts.length;
    const index = waiting.indexOf(caller);
    if (index >= 0) waiting.splice(index, 1);
    caller.reject(error);
  }

  function take(): Slice[] {
    const slices: Slice[] = [];
    let size = 0;
    while (size < batchSize && waiting.length > 0) {
      const caller = waiting[0]!;
      const count = Math.min(batchSize - size, caller.texts.length - caller.next);
      slices.push({ caller, start: caller.next, count });
      caller.next += count;
      queued -= count;
      size += count;
      if (caller.next === caller.texts.length) waiting.shift();
    }
    return slices;
  }

  function launch() {
    const slices = take();
    if (slices.length === 0) return;
    inFlight += 1;
    const texts = slices.flatMap((slice) => slice.caller.texts.slice(slice.start, slice.start + slice.count));
    options
      .send(texts)
      .then(
        (vectors) => {
          let offset = 0;
          for (const { caller, start, count } of slices) {
            for (let index = 0; index < count; index += 1) caller.vectors[start + index] = vectors[offset + index]!;
            offset += count;
            caller.missing -= count;
            if (caller.missing === 0 && !caller.settled) {
              caller.settled = true;
              caller.resolve(caller.vectors);
            }
          }
        },
        (error: unknown) => {
          for (const { caller } of slices) settle(caller, error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        pump();
      });
  }

  function pump() {
    while (inFlight < concurrency && queued >= batchSize) launch();
    if (queued > 0 && inFlight < concurrency && timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        if (queued > 0 && inFlight < concurrency) launch();
        pump();
      }, options.waitMs);
    }
  }

  return {
    submit(texts, signal) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        const caller: Caller = { texts, next: 0, vectors: new Array<Float32Array>(texts.length), missing: texts.length, settled: false, resolve, reject };
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener("abort", () => settle(caller, signal.reason), { once: true });
        waiting.push(caller);
        queued += texts.length;
        pump();
      });
    },
  };
}
