import type { CallOptions } from "../request";

/** What every call of the console shell lets its caller add: quiet, start-up, an abort signal, a de-duplication key. */
export type Extra = Pick<CallOptions, "silent" | "startup" | "signal" | "dedupeKey">;
