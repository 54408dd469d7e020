import { z } from "@hono/zod-openapi";

/**
 * Input bounds every route shares, so that no number or nesting a client sends can reach SQLite
 * or the JSON serializer out of range: a clear 400 naming the field instead.
 */

/** The highest page number any list accepts (far beyond any real list; keeps SQL offsets small). */
export const MAX_PAGE_NO = 1_000_000;
/** The largest page size any list accepts before its own cap applies. */
export const MAX_PAGE_SIZE = 1000;
/** How deep free-form JSON (workflow variables, node configs, metadata) may nest. */
export const MAX_JSON_DEPTH = 64;

/** A 1-based page number, at most {@link MAX_PAGE_NO}. */
export const pageNoSchema = z.coerce.number().int().min(1).max(MAX_PAGE_NO);

/** A page size from 1 to `max` ({@link MAX_PAGE_SIZE} unless the list refuses more). */
export const pageSizeSchema = (max: number = MAX_PAGE_SIZE) => z.coerce.number().int().min(1).max(max);

/** `pageNo` and `pageSize` of a list whose service applies its own default and cap. */
export const pageQuerySchema = z.object({
  pageNo: pageNoSchema.optional().openapi({ description: `1-based page number (at most ${MAX_PAGE_NO})`, example: 1 }),
  pageSize: pageSizeSchema()
    .optional()
    .openapi({ description: `Items per page (at most ${MAX_PAGE_SIZE}; the list may cap it lower)`, example: 20 }),
});

/** Whether a JSON value nests objects or arrays deeper than `max` levels; iterative, so any depth is safe to check. */
export function jsonDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== "object") continue;
    if (next.depth >= max) return true;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) stack.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

/** Bounds a free-form JSON field to {@link MAX_JSON_DEPTH} levels of nesting. */
export function boundedJson<T extends z.ZodType>(schema: T): T {
  return schema.refine((value) => !jsonDeeperThan(value, MAX_JSON_DEPTH), { message: "msg:json_too_deep" }) as T;
}
