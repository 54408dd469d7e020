/** The languages Parley answers and writes in, English first (the default). */
export const languages = ["en", "zh-CN"] as const;

/** One of {@link languages}. */
export type Language = (typeof languages)[number];
